/**
 * The player this browser plays as on the community pages (quick play, challenges, my matches):
 * its id, name and player key (`pk_…`), kept in localStorage under `drago:player`. The server shows
 * a key once, when the player is created (`POST /v1/players`), so the key lives only here: clearing
 * the browser's data, or "forget", loses the player (its name stays taken). A key from another
 * browser can be brought here; it is checked with `GET /v1/players/me`.
 *
 * A match found through a seek or a challenge seats the player with its key, so the page keeps the
 * key as that seat's credential (session.ts) before opening the match: `openSeated`.
 */

import { api, describeError } from "../api.js";
import { button, field, h, replaceChildren } from "../dom.js";
import { t } from "../i18n/index.js";
import { matchHref } from "../route.js";
import { saveSeat } from "../session.js";

export interface Identity {
  player_id: string;
  name: string;
  key: string;
}

const STORED = "drago:player";

export function identity(): Identity | null {
  try {
    const raw = localStorage.getItem(STORED);
    const value = raw ? (JSON.parse(raw) as Partial<Identity>) : null;
    return value?.player_id && value.key && typeof value.name === "string" ? { player_id: value.player_id, name: value.name, key: value.key } : null;
  } catch {
    return null;
  }
}

function save(value: Identity | null): void {
  if (value) localStorage.setItem(STORED, JSON.stringify(value));
  else localStorage.removeItem(STORED);
}

export const profileHref = (playerId: string): string => `#/player/${encodeURIComponent(playerId)}`;

/** Open the current page anew (after the player changed). */
export function reopen(): void {
  window.dispatchEvent(new HashChangeEvent("hashchange"));
}

/** Keep the key as the credential of the seat the player holds, then open the match seated. */
export function openSeated(me: Identity, matchId: string, seat: number): void {
  saveSeat(matchId, seat, { token: me.key, name: me.name });
  location.hash = matchHref(matchId, { as: String(seat) });
}

/** A link to a match the player sits in: keeps the key as the seat's credential when followed. */
export function seatedLink(me: Identity, matchId: string, seat: number, text: string, label: string): HTMLAnchorElement {
  const link = h("a", { href: matchHref(matchId, { as: String(seat) }), class: "button-link", "aria-label": label }, text);
  link.addEventListener("click", () => saveSeat(matchId, seat, { token: me.key, name: me.name }));
  return link;
}

/**
 * Who plays here: the player, with a link to its profile and a way to forget it; or a form that
 * creates one (a name) or brings a key from elsewhere. `changed` redraws the page around it.
 */
export function identityPanel(changed: () => void): HTMLElement {
  const me = identity();
  const message = h("p", { class: "message", role: "status" });
  const panel = h("section", { class: "panel identity", "aria-labelledby": "identity-title" });
  if (me) {
    replaceChildren(panel,
      h("h2", { id: "identity-title" }, t("player.title")),
      h("p", { "data-player": me.player_id }, t("player.playing_as", { name: me.name }), " ",
        h("a", { href: profileHref(me.player_id) }, t("player.profile_link"))),
      h("details", {},
        h("summary", {}, t("player.forget")),
        h("p", { class: "hint" }, t("player.forget_hint")),
        button(t("player.forget_confirm"), () => { save(null); changed(); }, { class: "danger", "data-key": "player-forget" })));
    return panel;
  }
  const name = h("input", { type: "text", id: "player-name", maxlength: 32, autocomplete: "nickname", required: true, "data-key": "player-name" });
  const key = h("input", { type: "text", id: "player-key", autocomplete: "off", spellcheck: "false", "data-key": "player-key" });
  const create = h("form", {
    class: "inline",
    onsubmit: (event: Event) => {
      event.preventDefault();
      message.textContent = t("player.creating");
      api.createPlayer({ name: name.value.trim() }).then(
        (created) => { save({ player_id: created.player_id, name: created.name, key: created.key }); changed(); },
        (error: unknown) => { message.textContent = describeError(error); },
      );
    },
  }, field(t("player.name"), name, t("player.name_hint")), h("button", { type: "submit", class: "primary", "data-key": "player-create" }, t("player.create")));
  const bring = h("form", {
    class: "inline",
    onsubmit: (event: Event) => {
      event.preventDefault();
      const value = key.value.trim();
      api.getMe({ token: value }).then(
        (player) => { save({ player_id: player.player_id, name: player.name, key: value }); changed(); },
        (error: unknown) => { message.textContent = describeError(error); },
      );
    },
  }, field(t("player.key"), key, t("player.key_hint")), h("button", { type: "submit", "data-key": "player-use-key" }, t("player.use_key")));
  replaceChildren(panel,
    h("h2", { id: "identity-title" }, t("player.title")),
    h("p", {}, t("player.none")),
    create,
    h("details", {}, h("summary", {}, t("player.have_key")), bring),
    message);
  return panel;
}
