/**
 * Quick play (`#/play`): the player opens a seek — a game, how many players, the clock, who may be
 * met (people, bots or both) and after how long server bots fill the missing seats — and waits.
 * The seek lives on the server, not in this page: the page follows the player's personal stream
 * and, when a `seek_matched` notice arrives, opens the match seated with the player's key. A seek
 * matched while the stream was reconnecting is found when the stream says hello again (the page
 * then reads the player's seeks). Open seeks are listed with a button that cancels them.
 *
 * A link may preset the form: `#/play?game=yutaka&players=2&bots_after=10`.
 */

import type { CreateSeek, Game, Seek } from "drago-client";
import { api, describeError } from "../api.js";
import { clockFields } from "../create.js";
import { button, field, h, replaceChildren } from "../dom.js";
import { dateTime, t, tn } from "../i18n/index.js";
import type { Page, Route } from "../route.js";
import { identity, identityPanel, openSeated, reopen, type Identity } from "./player.js";

/** Seconds before bots fill the missing seats; "" never. 30 s is the default: long enough for a
 * person who is online to be found, short enough not to give up. */
const BOTS_AFTER = ["", "0", "10", "30", "60", "300"] as const;
const DEFAULT_BOTS_AFTER = "30";
const OPPONENTS = ["humans", "any", "bots"] as const;

function botsAfterText(value: string): string {
  if (value === "") return t("play.bots_never");
  if (value === "0") return t("play.bots_now");
  return tn("play.bots_after_n", Number(value));
}

function seekText(seek: Seek, titles: Map<string, string>): string {
  const players = seek.players.length === 1 ? tn("create.players_n", seek.players[0]!) : t("play.players_any_of", { list: seek.players.join(", ") });
  return [titles.get(seek.game) ?? seek.game, players, botsAfterText(seek.bots_after_s === null ? "" : String(seek.bots_after_s))].join(" · ");
}

export function quickPlayPage(root: HTMLElement, route: Route): Page {
  const stop = new AbortController();
  const opened = new Set<string>(); // seeks opened from this page: matched, they open the match
  const titles = new Map<string, string>();
  let games: Game[] = [];
  let me: Identity | null = identity();

  const message = h("p", { class: "message", role: "status" });
  const waiting = h("div", { class: "seeks", "aria-live": "polite" });
  const formSlot = h("div");
  const identitySlot = h("div");

  async function refresh(): Promise<void> {
    if (!me) return replaceChildren(waiting);
    try {
      const seeks = (await api.listMySeeks({ limit: 20 }, { token: me.key })).items;
      const done = seeks.find((s) => opened.has(s.seek_id) && s.status === "matched" && s.match_id && s.seat !== null);
      if (done) return openSeated(me, done.match_id!, done.seat!);
      const open = seeks.filter((s) => s.status === "open");
      replaceChildren(waiting, open.length === 0 ? null : [
        h("h2", { id: "seeks-title" }, t("play.waiting_title")),
        h("ul", { class: "matches", "aria-labelledby": "seeks-title" }, open.map((seek) => h("li", { class: "match-item", "data-seek": seek.seek_id },
          h("span", {}, h("strong", {}, seekText(seek, titles))),
          h("span", { class: "status status-waiting" }, t("play.waiting")),
          h("time", { datetime: seek.created_at, class: "created" }, t("play.since", { time: dateTime(seek.created_at) })),
          h("span", { class: "links" }, button(t("play.cancel"), () => void cancel(seek), {
            "data-key": `cancel-${seek.seek_id}`, "aria-label": t("play.cancel_label", { seek: seekText(seek, titles) }) }))))),
      ]);
    } catch (error) {
      message.textContent = describeError(error);
    }
  }

  async function cancel(seek: Seek): Promise<void> {
    if (!me) return;
    try {
      await api.cancelSeek(seek.seek_id, { token: me.key });
      message.textContent = t("play.cancelled");
    } catch (error) {
      message.textContent = describeError(error);
    }
    await refresh();
  }

  async function listen(player: Identity): Promise<void> {
    for await (const frame of api.followPlayer({ key: player.key, hellos: true, signal: stop.signal })) {
      if (frame.type === "hello") await refresh();
      else if (frame.notice.type === "seek_matched" && frame.notice.match_id && typeof frame.notice.seat === "number") {
        return openSeated(player, frame.notice.match_id, frame.notice.seat);
      } else await refresh();
    }
  }

  function form(player: Identity): HTMLElement {
    const params = route.params;
    const wanted = params.get("game");
    const gameChoice = h("fieldset", { class: "game-choice" }, h("legend", {}, t("create.game")),
      games.map((g, i) => h("label", { class: "game-option" },
        h("input", { type: "radio", name: "seek-game", id: `seek-game-${g.name}`, value: g.name, checked: wanted ? g.name === wanted : i === 0, "data-key": `seek-game-${g.name}` }),
        h("span", { class: "game-title" }, g.title))));
    const players = h("select", { id: "seek-players", "data-key": "seek-players" });
    const playersSlot = h("div");
    const opponents = h("select", { id: "seek-opponents", "data-key": "seek-opponents" },
      OPPONENTS.map((o) => h("option", { value: o }, t(`play.opponents.${o}`))));
    const botsAfterChoices: string[] = [...BOTS_AFTER];
    const preset = params.get("bots_after");
    if (preset !== null && /^\d+$/.test(preset) && !botsAfterChoices.includes(preset)) botsAfterChoices.push(preset);
    const botsAfter = h("select", { id: "seek-bots-after", "data-key": "seek-bots-after" },
      botsAfterChoices.map((v) => h("option", { value: v, selected: v === (preset ?? DEFAULT_BOTS_AFTER) }, botsAfterText(v))));
    const clock = clockFields();
    const game = (): Game => games.find((g) => gameChoice.querySelector<HTMLInputElement>(`#seek-game-${g.name}`)?.checked) ?? games[0]!;

    function selectGame(): void {
      const chosen = game();
      const counts = Array.from({ length: chosen.max_players - chosen.min_players + 1 }, (_, i) => chosen.min_players + i);
      replaceChildren(players,
        counts.map((n) => h("option", { value: n }, tn("create.players_n", n))),
        counts.length > 1 ? h("option", { value: "any" }, t("play.players_any")) : null);
      const count = params.get("players");
      if (count && [...players.options].some((o) => o.value === count)) players.value = count;
      replaceChildren(playersSlot, counts.length === 1
        ? h("p", { class: "fixed-players" }, tn("create.players_exactly", chosen.min_players))
        : field(t("create.players"), players));
    }

    async function submit(event: Event): Promise<void> {
      event.preventDefault();
      const chosen = game();
      const all = Array.from({ length: chosen.max_players - chosen.min_players + 1 }, (_, i) => chosen.min_players + i);
      const body: CreateSeek = {
        game: chosen.name,
        players: players.value === "any" ? all : Number(players.value || chosen.min_players),
        options: {},
        clock: clock.value(),
        opponents: opponents.value as CreateSeek["opponents"],
        bots_after_s: botsAfter.value === "" ? null : Number(botsAfter.value),
      };
      message.textContent = t("play.opening");
      try {
        const seek = await api.createSeek(body, { token: player.key });
        opened.add(seek.seek_id);
        message.textContent = t("play.opened");
      } catch (error) {
        message.textContent = t("play.failed", { error: describeError(error) });
      }
      await refresh();
    }

    gameChoice.addEventListener("change", selectGame);
    clock.element.addEventListener("change", () => clock.on());
    selectGame();
    clock.on();
    return h("form", { class: "create seek", onsubmit: (event: Event) => void submit(event) },
      gameChoice,
      playersSlot,
      h("div", { class: "row" },
        field(t("play.opponents"), opponents, t("play.opponents_hint")),
        field(t("play.bots_after"), botsAfter, t("play.bots_after_hint"))),
      clock.element,
      h("button", { type: "submit", class: "primary big", "data-key": "seek-submit" }, t("play.submit")));
  }

  // The identity panel is drawn again only when the player changes: drawing it when the games
  // arrive would wipe a name being typed into its form.
  let drawnFor: string | null | undefined;
  function draw(): void {
    me = identity();
    const who = me ? me.player_id : null;
    if (who !== drawnFor) {
      drawnFor = who;
      replaceChildren(identitySlot, identityPanel(reopen));
    }
    replaceChildren(formSlot, me && games.length ? form(me) : null);
  }

  // Busy until the games have arrived (the seek form needs them).
  const seekPanel = h("section", { class: "panel", "aria-labelledby": "seek-title", "aria-busy": "true" },
    h("h2", { id: "seek-title" }, t("play.new")), formSlot, message, waiting);
  replaceChildren(root, h("main", { id: "main", class: "quick-play" },
    h("h1", {}, t("play.title")),
    h("p", { class: "lead" }, t("play.lead")),
    identitySlot,
    seekPanel));
  draw();
  void api.listGames().then((list) => {
    games = list.items as Game[];
    for (const g of games) titles.set(g.name, g.title);
    draw();
    void refresh();
  }, (error: unknown) => { message.textContent = describeError(error); })
    .finally(() => seekPanel.setAttribute("aria-busy", "false"));
  if (me) {
    const player = me;
    listen(player).catch((error: unknown) => {
      if (!stop.signal.aborted) message.textContent = t("play.stream_lost", { error: describeError(error) });
    });
  }
  return { dispose: () => stop.abort() };
}
