/**
 * The create form: a game, its player count, its options (generated from the game's options
 * schema by schemaform.ts) and the match settings — a turn clock, what a timeout does, visibility,
 * turn drafts, and which seats server bots take at which level. The host token (and an unlisted
 * match's invite) the server returns once are kept in this browser (session.ts).
 */

import type { BotSeat, CreateMatch, Game } from "drago-client";
import { api, describeError, gameDetail } from "./api.js";
import { field, h, replaceChildren } from "./dom.js";
import { matchHref } from "./route.js";
import { optionsForm, type OptionsForm } from "./schemaform.js";
import { saveHost } from "./session.js";

const LEVELS: readonly NonNullable<BotSeat["level"]>[] = ["random", "greedy", "ismcts"];

function clockFields(): { element: HTMLElement; value(): CreateMatch["clock"] } {
  const kind = h(
    "select",
    { id: "create-clock", "data-key": "create-clock" },
    h("option", { value: "" }, "no clock"),
    h("option", { value: "decision" }, "per decision"),
    h("option", { value: "bank" }, "bank with increment"),
  );
  const seconds = h("input", { type: "number", id: "create-clock-s", min: 1, step: 1, value: 86400, "data-key": "create-clock-s" });
  const increment = h("input", { type: "number", id: "create-clock-inc", min: 0, step: 1, value: 30, "data-key": "create-clock-inc" });
  const incrementField = field("Increment per commit (s)", increment);
  const sync = () => {
    seconds.disabled = kind.value === "";
    incrementField.hidden = kind.value !== "bank";
  };
  kind.addEventListener("change", sync);
  sync();
  return {
    element: h("div", { class: "row" }, field("Clock", kind), field("Seconds (per decision, or the bank)", seconds), incrementField),
    value() {
      if (kind.value === "decision") return { per_decision_s: Number(seconds.value) };
      if (kind.value === "bank") return { initial_s: Number(seconds.value), increment_s: Number(increment.value) };
      return null;
    },
  };
}

export function createForm(root: HTMLElement, games: readonly Game[]): void {
  const gameSelect = h("select", { id: "create-game", "data-key": "create-game" }, games.map((g) => h("option", { value: g.name }, g.title)));
  const players = h("input", { type: "number", id: "create-players", step: 1, "data-key": "create-players" });
  const botsSlot = h("fieldset", { class: "bots" });
  const optionsSlot = h("div");
  const clock = clockFields();
  const onTimeout = h("select", { id: "create-timeout" }, h("option", { value: "bot" }, "a bot decides"), h("option", { value: "forfeit" }, "the seat forfeits"));
  const visibility = h("select", { id: "create-visibility" }, h("option", { value: "public" }, "public (in the lobby)"), h("option", { value: "unlisted" }, "unlisted (invite link)"));
  const drafts = h("input", { type: "checkbox", id: "create-drafts" });
  const message = h("p", { role: "status", class: "message" });
  let options: OptionsForm | null = null;
  let botLevels: HTMLSelectElement[] = [];

  const game = (): Game => games.find((g) => g.name === gameSelect.value) ?? games[0]!;

  function renderBots(): void {
    const count = Number(players.value);
    if (count === botLevels.length) return; // a change event on blur: keep the choices made
    botLevels = Array.from({ length: count }, (_, seat) => {
      const select = h(
        "select",
        { id: `create-seat-${seat}`, "data-key": `create-seat-${seat}` },
        h("option", { value: "" }, "a person"),
        LEVELS.map((level) => h("option", { value: level }, `bot (${level})`)),
      );
      select.value = botLevels[seat]?.value ?? "";
      return select;
    });
    replaceChildren(botsSlot, h("legend", {}, "Seats"), botLevels.map((select, seat) => field(`Seat ${seat}`, select)));
  }

  async function selectGame(): Promise<void> {
    const chosen = game();
    players.min = String(chosen.min_players);
    players.max = String(chosen.max_players);
    players.value = String(chosen.min_players);
    players.disabled = chosen.min_players === chosen.max_players;
    renderBots();
    replaceChildren(optionsSlot, h("p", {}, "Loading the options…"));
    try {
      const detail = await gameDetail(chosen.name);
      options = optionsForm((detail.schemas.options ?? detail.options_schema) as Record<string, unknown>, `option-${chosen.name}`);
      replaceChildren(optionsSlot, options.element);
    } catch (error) {
      replaceChildren(optionsSlot, h("p", { role: "alert" }, describeError(error)));
    }
  }

  async function submit(event: Event): Promise<void> {
    event.preventDefault();
    message.textContent = "Creating…";
    try {
      const bots: BotSeat[] = botLevels.flatMap((select, seat) =>
        select.value ? [{ seat, level: select.value as BotSeat["level"] }] : [],
      );
      const body: CreateMatch = {
        game: game().name,
        players: Number(players.value),
        options: options?.value() ?? {},
        bots,
        clock: clock.value(),
        on_timeout: onTimeout.value as CreateMatch["on_timeout"],
        visibility: visibility.value as CreateMatch["visibility"],
        drafts: drafts.checked,
      };
      const created = await api.createMatch(body);
      saveHost(created.id, created.host_token, created.invite);
      location.hash = matchHref(created.id, created.invite ? { invite: created.invite } : {});
    } catch (error) {
      message.textContent = `Not created: ${describeError(error)}`;
    }
  }

  gameSelect.addEventListener("change", () => void selectGame());
  players.addEventListener("change", renderBots);
  replaceChildren(
    root,
    h(
      "form",
      { class: "create", onsubmit: (event: Event) => void submit(event) },
      h("div", { class: "row" }, field("Game", gameSelect), field("Players", players)),
      botsSlot,
      optionsSlot,
      h(
        "fieldset",
        {},
        h("legend", {}, "Match settings"),
        clock.element,
        h("div", { class: "row" }, field("When time runs out", onTimeout), field("Visibility", visibility)),
        h("label", { class: "field check" }, drafts, h("span", {}, "turn drafts (undo, finish turn)")),
      ),
      h("button", { type: "submit", class: "primary" }, "Create match"),
      message,
    ),
  );
  void selectGame();
}
