/**
 * "My matches" (`#/me`): the player's challenges — received ones to accept or decline, sent ones
 * with each invited player's answer — and the player's waiting and active matches, those where it
 * is the player's turn first. The page follows the player's personal stream and reads both lists
 * again on every notice (a challenge received or answered, a turn, an end), so it stays current
 * without polling. A decline being written survives those redraws: its form stays open with the
 * reason typed so far (and the keyboard where it was).
 */

import type { Challenge, Game, PlayerMatch } from "drago-client";
import { api, describeError } from "../api.js";
import { button, field, h, replaceChildren } from "../dom.js";
import { dateTime, list, t, tn } from "../i18n/index.js";
import type { Page } from "../route.js";
import { identity, identityPanel, profileHref, reopen, seatedLink, type Identity } from "./player.js";

const SHOWN = 50;

function others(me: Identity, challenge: Challenge): string[] {
  const names = [challenge.name, ...challenge.to.map((p) => p.name)];
  return names.filter((name) => name !== me.name);
}

export function myMatchesPage(root: HTMLElement): Page {
  const stop = new AbortController();
  const me = identity();
  const titles = new Map<string, string>();
  const message = h("p", { class: "message", role: "status" });
  const challengesSlot = h("div", { "aria-live": "polite" });
  const matchesSlot = h("div");
  const title = (game: string) => titles.get(game) ?? game;
  // The declines being written: challenge id → the reason typed so far (present while its form is open).
  const drafts = new Map<string, string>();

  function challengeItem(player: Identity, c: Challenge): HTMLLIElement {
    const received = c.player_id !== player.player_id;
    const mine = c.to.find((p) => p.player_id === player.player_id);
    const open = c.status === "open";
    const id = c.challenge_id;
    const draft = drafts.get(id);
    const reason = h("input", { type: "text", id: `reason-${id}`, maxlength: 200, "data-key": `reason-${id}`, value: draft ?? "",
      oninput: () => drafts.set(id, reason.value) });
    const declining = (event: Event) => {
      if ((event.currentTarget as HTMLDetailsElement).open) drafts.set(id, reason.value);
      else drafts.delete(id);
    };
    const answers = c.to.filter((p) => p.player_id !== player.player_id)
      .map((p) => t(p.answer === "accepted" ? "me.answer.accepted" : p.answer === "declined" ? "me.answer.declined" : "me.answer.none", { name: p.name }));
    return h("li", { class: "match-item challenge", "data-challenge": c.challenge_id, "data-status": c.status },
      h("span", {}, h("strong", {}, title(c.game)), " ", h("small", {}, tn("create.players_n", c.players)), " · ",
        received ? t("me.from", { name: c.name }) : t("me.to", { names: list(others(player, c)) })),
      h("span", { class: `status status-${open ? "waiting" : "finished"}` }, t(`me.challenge.${c.status}`)),
      h("span", { class: "seats-text" }, [answers.join(" · "), c.reason ? t("me.reason", { reason: c.reason }) : ""].filter(Boolean).join(" · "),
        open ? [" ", t("me.expires", { time: dateTime(c.expires_at) })] : null),
      h("span", { class: "links" },
        received && open && mine?.answer == null ? [
          button(t("me.accept"), () => void answer(player, c, true, ""), { class: "primary", "data-key": `accept-${c.challenge_id}`, "aria-label": t("me.accept_label", { name: c.name, game: title(c.game) }) }),
          h("details", { class: "decline", open: draft !== undefined, ontoggle: declining }, h("summary", {}, t("me.decline")),
            field(t("me.decline_reason"), reason),
            button(t("me.decline_send"), () => void answer(player, c, false, reason.value.trim()), { "data-key": `decline-${c.challenge_id}`, "aria-label": t("me.decline_label", { name: c.name, game: title(c.game) }) })),
        ] : null,
        c.match_id ? h("a", { href: `#/match/${c.match_id}?as=spectator`, class: "button-link" }, t("me.watch")) : null));
  }

  async function answer(player: Identity, c: Challenge, accept: boolean, reason: string): Promise<void> {
    try {
      if (accept) await api.acceptChallenge(c.challenge_id, { token: player.key });
      else await api.declineChallenge(c.challenge_id, reason ? { reason } : {}, { token: player.key });
      drafts.delete(c.challenge_id);
      message.textContent = accept ? t("me.accepted") : t("me.declined");
    } catch (error) {
      message.textContent = describeError(error);
    }
    await load(player);
  }

  function matchItem(player: Identity, item: PlayerMatch): HTMLLIElement {
    const m = item.match;
    const opponents = m.seats.filter((s) => s.seat !== item.seat).map((s) => (!s.taken ? t("seats.free") : s.bot ? t("lobby.bot_name", { name: s.name ?? "" }) : (s.name ?? "")));
    const short = m.id.slice(0, 6);
    return h("li", { class: `match-item${item.my_turn ? " my-turn" : ""}`, "data-match": m.id, "data-my-turn": item.my_turn ? "yes" : "no" },
      h("span", { class: "game" }, h("strong", {}, title(m.game)), " ", h("small", {}, t("me.against", { names: list(opponents) }))),
      h("span", { class: `status status-${m.status}` }, item.my_turn ? t("me.your_turn") : t(`match.status.${m.status}`)),
      h("span", { class: "seats-text" }, item.deadline ? t("me.deadline", { time: dateTime(item.deadline) }) : t("match.seat", { n: item.seat + 1 })),
      h("span", { class: "links" }, seatedLink(player, m.id, item.seat, t("me.open"), t("me.open_label", { game: title(m.game), id: short }))));
  }

  async function load(player: Identity): Promise<void> {
    try {
      const [challenges, active, waiting] = await Promise.all([
        api.listMyChallenges({ limit: SHOWN }, { token: player.key }),
        api.myMatches({ status: "active", limit: SHOWN }, { token: player.key }),
        api.myMatches({ status: "waiting", limit: SHOWN }, { token: player.key }),
      ]);
      const received = challenges.items.filter((c) => c.player_id !== player.player_id);
      const sent = challenges.items.filter((c) => c.player_id === player.player_id);
      replaceChildren(challengesSlot,
        h("h2", { id: "received-title" }, t("me.received")),
        received.length ? h("ul", { class: "matches", "aria-labelledby": "received-title" }, received.map((c) => challengeItem(player, c))) : h("p", { class: "empty" }, t("me.none_received")),
        h("h2", { id: "sent-title" }, t("me.sent")),
        sent.length ? h("ul", { class: "matches", "aria-labelledby": "sent-title" }, sent.map((c) => challengeItem(player, c))) : h("p", { class: "empty" }, t("me.none_sent")));
      // Your turn first; then the newest activity first, as the server lists them.
      const items = [...active.items, ...waiting.items].sort((a, b) => Number(b.my_turn) - Number(a.my_turn));
      replaceChildren(matchesSlot,
        h("h2", { id: "mine-title" }, t("me.matches")),
        items.length ? h("ul", { class: "matches", "aria-labelledby": "mine-title" }, items.map((item) => matchItem(player, item)))
          : h("p", { class: "empty" }, t("me.no_matches")));
    } catch (error) {
      message.textContent = describeError(error);
    }
  }

  async function listen(player: Identity): Promise<void> {
    for await (const _frame of api.followPlayer({ key: player.key, hellos: true, signal: stop.signal })) await load(player);
  }

  replaceChildren(root, h("main", { id: "main", class: "mine" },
    h("h1", {}, t("me.title")),
    identityPanel(reopen),
    message,
    me ? h("div", { class: "lobby-grid" },
      h("section", { class: "panel", "aria-label": t("me.matches") }, matchesSlot),
      h("section", { class: "panel", "aria-label": t("me.challenges") }, challengesSlot)) : null,
    me ? h("p", {}, h("a", { href: profileHref(me.player_id) }, t("player.profile_link"))) : null));
  if (me) {
    void api.listGames().then((games) => {
      for (const g of games.items as Game[]) titles.set(g.name, g.title);
      void load(me);
    });
    listen(me).catch((error: unknown) => {
      if (!stop.signal.aborted) message.textContent = t("play.stream_lost", { error: describeError(error) });
    });
  }
  return { dispose: () => stop.abort() };
}
