/**
 * The create form, common choices first: the game, how many players, who sits where (a person, or
 * a server bot and how strong), the clock, who may find the match; the game's own common options
 * (Yutakâ's mode); then, folded under "more options", the rarely changed rules (gameoptions.ts)
 * and match settings (turn drafts, when a bot takes a silent seat over, samples for bot
 * programs). Every choice is in plain words from the catalogue; nothing shows raw JSON. The host
 * token (and an unlisted match's invite) the server returns once are kept in this browser.
 */

import type { BotSeat, CreateMatch, Game } from "drago-client";
import { api, describeError, gameDetail } from "./api.js";
import { field, h, replaceChildren } from "./dom.js";
import { optionsForm, type OptionsForm } from "./gameoptions.js";
import { has, t, tn, type Key } from "./i18n/index.js";
import { matchHref } from "./route.js";
import { saveHost } from "./session.js";

const LEVELS = ["random", "greedy", "ismcts"] as const;
const UNITS = [["s", 1], ["min", 60], ["h", 3600], ["d", 86400]] as const;

// The choices made so far, by control id: a redraw (another language) keeps them.
const remembered = new Map<string, string | boolean>();

function remember(form: HTMLElement): void {
  for (const control of form.querySelectorAll<HTMLInputElement | HTMLSelectElement>("input[id], select[id]")) {
    remembered.set(control.id, control instanceof HTMLInputElement && (control.type === "checkbox" || control.type === "radio") ? control.checked : control.value);
  }
}

function restore(form: HTMLElement, ids?: (id: string) => boolean): void {
  for (const control of form.querySelectorAll<HTMLInputElement | HTMLSelectElement>("input[id], select[id]")) {
    if (ids && !ids(control.id)) continue;
    const value = remembered.get(control.id);
    if (value === undefined) continue;
    if (typeof value === "boolean") {
      if (control instanceof HTMLInputElement) control.checked = value;
    } else if (control instanceof HTMLSelectElement) {
      if ([...control.options].some((option) => option.value === value)) control.value = value;
    } else control.value = value;
  }
}

/** A duration: a number and a unit (seconds, minutes, hours, days). */
function duration(id: string, seconds: number, min: number): { element: HTMLElement; seconds(): number } {
  const [unit, size] = [...UNITS].reverse().find(([, s]) => seconds % s === 0) ?? UNITS[0];
  const amount = h("input", { type: "number", id: `${id}-amount`, min, step: 1, value: seconds / size, class: "amount", "data-key": `${id}-amount` });
  const units = h("select", { id: `${id}-unit`, "aria-label": t("create.unit"), "data-key": `${id}-unit` },
    UNITS.map(([code]) => h("option", { value: code, selected: code === unit }, t(`create.unit.${code}`))));
  return {
    element: h("span", { class: "duration" }, amount, units),
    seconds: () => Number(amount.value) * (UNITS.find(([code]) => code === units.value)?.[1] ?? 1),
  };
}

/** The clock choice (none, per decision, a bank), as quick play offers it too. */
export function clockFields(): { element: HTMLElement; value(): CreateMatch["clock"]; on(): boolean } {
  const kind = h("select", { id: "create-clock", "data-key": "create-clock" },
    h("option", { value: "" }, t("create.clock.none")),
    h("option", { value: "decision" }, t("create.clock.decision")),
    h("option", { value: "bank" }, t("create.clock.bank")));
  const time = duration("create-clock", 86400, 1);
  const increment = duration("create-inc", 30, 0);
  const timeField = h("div", { class: "field" }, h("label", { for: "create-clock-amount", class: "label", id: "create-clock-time" }), time.element);
  const incrementField = h("div", { class: "field" }, h("label", { for: "create-inc-amount", class: "label" }, t("create.clock.increment")), increment.element);
  const sync = () => {
    timeField.hidden = kind.value === "";
    timeField.querySelector("label")!.textContent = kind.value === "bank" ? t("create.clock.bank_time") : t("create.clock.decision_time");
    incrementField.hidden = kind.value !== "bank";
  };
  kind.addEventListener("change", sync);
  return {
    element: h("div", { class: "row clock-fields" }, field(t("create.clock"), kind, t("create.clock_hint")), timeField, incrementField),
    value() {
      if (kind.value === "decision") return { per_decision_s: time.seconds() };
      if (kind.value === "bank") return { initial_s: time.seconds(), increment_s: increment.seconds() };
      return null;
    },
    on: () => (sync(), kind.value !== ""),
  };
}

export function createForm(root: HTMLElement, games: readonly Game[]): void {
  const gameChoice = h("fieldset", { class: "game-choice" }, h("legend", {}, t("create.game")),
    games.map((g, i) => h("label", { class: "game-option" },
      h("input", { type: "radio", name: "create-game", id: `create-game-${g.name}`, value: g.name, checked: i === 0, "data-key": `create-game-${g.name}` }),
      h("span", { class: "game-title" }, g.title),
      h("small", {}, g.min_players === g.max_players ? tn("create.players_exactly", g.min_players) : t("create.players_range", { min: g.min_players, max: g.max_players }),
        has(`create.about.${g.name}`) ? [" · ", t(`create.about.${g.name}` as Key)] : null))));
  const players = h("select", { id: "create-players", "data-key": "create-players" });
  const playersSlot = h("div");
  const seatsSlot = h("fieldset", { class: "seats-choice" });
  const commonSlot = h("div");
  const moreSlot = h("div");
  const clock = clockFields();
  const onTimeout = h("select", { id: "create-timeout", "data-key": "create-timeout" },
    h("option", { value: "bot" }, t("create.timeout.bot")), h("option", { value: "forfeit" }, t("create.timeout.forfeit")));
  const timeoutField = field(t("create.timeout"), onTimeout);
  const takeover = h("input", { type: "number", id: "create-takeover", min: 1, max: 100, step: 1, value: 3, class: "amount", "data-key": "create-takeover" });
  const takeoverField = field(t("create.takeover"), takeover, t("create.takeover_hint"));
  const visibility = h("fieldset", { class: "visibility" }, h("legend", {}, t("create.visibility")),
    (["public", "unlisted"] as const).map((v) => h("label", { class: "radio" },
      h("input", { type: "radio", name: "create-visibility", id: `create-visibility-${v}`, value: v, checked: v === "public" }),
      " ", t(`create.visibility.${v}`))));
  const drafts = h("input", { type: "checkbox", id: "create-drafts", "data-key": "create-drafts" });
  const samples = h("input", { type: "checkbox", id: "create-samples", checked: true, "data-key": "create-samples" });
  const message = h("p", { role: "status", class: "message" });
  let options: OptionsForm | null = null;
  let seatChoices: HTMLSelectElement[] = [];
  let loading = 0;

  const game = (): Game => games.find((g) => gameChoice.querySelector<HTMLInputElement>(`#create-game-${g.name}`)?.checked) ?? games[0]!;

  function renderSeats(): void {
    const count = Number(players.value);
    seatChoices = Array.from({ length: count }, (_, seat) => {
      const id = `create-seat-${seat}`;
      const select = h("select", { id, "data-key": id },
        h("option", { value: "" }, t("create.seat.person")),
        LEVELS.map((level) => h("option", { value: level }, t(`create.seat.${level}`))));
      select.value = seatChoices[seat]?.value ?? (remembered.get(id) as string | undefined) ?? "";
      return select;
    });
    replaceChildren(seatsSlot, h("legend", {}, t("create.seats")),
      h("p", { class: "hint" }, t("create.seats_hint")),
      h("div", { class: "row" }, seatChoices.map((select, seat) => field(t("match.seat", { n: seat + 1 }), select))));
  }

  async function renderOptions(): Promise<void> {
    const chosen = game();
    const ticket = ++loading;
    replaceChildren(commonSlot, h("p", {}, t("create.loading_options")));
    replaceChildren(moreSlot);
    try {
      const detail = await gameDetail(chosen.name);
      if (ticket !== loading) return;
      options = optionsForm(chosen.name, (detail.schemas.options ?? detail.options_schema) as Record<string, unknown>, Number(players.value));
      replaceChildren(commonSlot, options.common);
      replaceChildren(moreSlot, options.more);
      restore(form, (id) => id.startsWith(`option-${chosen.name}-`));
      options.sync();
    } catch (error) {
      replaceChildren(commonSlot, h("p", { role: "alert" }, describeError(error)));
    }
  }

  function selectGame(): void {
    const chosen = game();
    replaceChildren(players, Array.from({ length: chosen.max_players - chosen.min_players + 1 }, (_, i) => {
      const n = chosen.min_players + i;
      return h("option", { value: n }, tn("create.players_n", n));
    }));
    const wanted = remembered.get("create-players");
    if (typeof wanted === "string" && Number(wanted) >= chosen.min_players && Number(wanted) <= chosen.max_players) players.value = wanted;
    replaceChildren(playersSlot, chosen.min_players === chosen.max_players
      ? h("p", { class: "fixed-players" }, tn("create.players_exactly", chosen.min_players))
      : field(t("create.players"), players));
    renderSeats();
    void renderOptions();
  }

  async function submit(event: Event): Promise<void> {
    event.preventDefault();
    message.textContent = t("create.creating");
    try {
      const bots: BotSeat[] = seatChoices.flatMap((select, seat) => (select.value ? [{ seat, level: select.value as BotSeat["level"] }] : []));
      const body: CreateMatch = {
        game: game().name,
        players: Number(players.value),
        options: options?.value() ?? {},
        bots,
        clock: clock.value(),
        on_timeout: onTimeout.value as CreateMatch["on_timeout"],
        takeover_after: Number(takeover.value) || 3,
        visibility: visibility.querySelector<HTMLInputElement>("#create-visibility-unlisted")!.checked ? "unlisted" : "public",
        drafts: drafts.checked,
        allow_samples: samples.checked,
      };
      const created = await api.createMatch(body);
      saveHost(created.id, created.host_token, created.invite);
      location.hash = matchHref(created.id, created.invite ? { invite: created.invite } : {});
    } catch (error) {
      message.textContent = t("create.failed", { error: describeError(error) });
    }
  }

  const syncTimeout = () => {
    const on = clock.on();
    timeoutField.hidden = !on;
    takeoverField.hidden = !on || onTimeout.value !== "bot";
  };
  const form = h("form", { class: "create", onsubmit: (event: Event) => void submit(event) },
    gameChoice,
    playersSlot,
    seatsSlot,
    commonSlot,
    h("fieldset", { class: "match-settings" }, h("legend", {}, t("create.settings")),
      clock.element, h("div", { class: "row" }, timeoutField, takeoverField), visibility),
    h("details", { class: "more" },
      h("summary", {}, t("create.more")),
      h("p", { class: "hint" }, t("create.more_hint")),
      moreSlot,
      h("div", { class: "field check" }, drafts, h("label", { for: "create-drafts" }, t("create.drafts")), h("small", {}, t("create.drafts_hint"))),
      h("div", { class: "field check" }, samples, h("label", { for: "create-samples" }, t("create.samples")), h("small", {}, t("create.samples_hint")))),
    h("button", { type: "submit", class: "primary big" }, t("create.submit")),
    message);
  form.addEventListener("change", (event) => {
    const target = event.target as HTMLElement;
    if (target.id.startsWith("create-game-")) {
      remember(form);
      selectGame();
    } else if (target.id === "create-players") {
      remember(form);
      renderSeats();
      void renderOptions();
    }
    options?.sync();
    syncTimeout();
    remember(form);
  });
  replaceChildren(root, form);
  restore(form, (id) => id.startsWith("create-game-"));
  selectGame();
  restore(form, (id) => !id.startsWith("option-") && !id.startsWith("create-game-"));
  syncTimeout();
}
