/**
 * The chat rooms of a match (docs/chat.md): `players` for the seated players, `spectators` for
 * everyone else (written with a player key, read by anybody who may watch). Until the match is over
 * a seated player sees only `players` and a spectator only `spectators`; afterwards both rooms are
 * open to everyone who may watch, and the players write in both.
 *
 * The panel reads the rooms' history (`GET …/chat`, a page at a time, after the newest message
 * it holds) when the match stream says hello, and again from the start when the match ends (a room
 * may have opened); live messages come as `chat` frames on the match stream (`follow`'s `onChat`).
 * The page writes with the seat's token, or as a spectator with the key of the player this browser
 * plays as (community/player.ts), through the client's `getChat` and `postChat`. A server without
 * chat answers 404: the panel then stays hidden.
 * Messages are plain text, shown as text nodes (never as HTML).
 */

import { NotFound, type CallOptions, type ChatMessage } from "drago-client";
import { api, describeError } from "../api.js";
import { h } from "../dom.js";
import { dateTime, t } from "../i18n/index.js";
import { identity } from "../community/player.js";
import { seatName, type MatchContext } from "../match/context.js";

export const ROOMS = ["players", "spectators"] as const;
export type Room = (typeof ROOMS)[number];
const MAX_TEXT = 500;
const PAGE = 100;

export interface ChatState {
  messages: ChatMessage[];
  room: Room | null; // the room shown (null: the first readable one)
  draft: string;
  sending: boolean;
  error: string | null;
  available: boolean; // false: this server has no chat
  // Reads from the start asked for (a room may have opened), and the newest of them a read from
  // the start has answered: until then every read starts from the start, since a room that opened
  // holds messages older than the newest one held.
  resetsAsked: number;
  resetsDone: number;
}

export const newChat = (): ChatState => ({ messages: [], room: null, draft: "", sending: false, error: null, available: true, resetsAsked: 0, resetsDone: 0 });

const over = (ctx: MatchContext): boolean => ctx.state.live?.status === "finished" || ctx.state.live?.status === "aborted";

/** The rooms this page reads now, and those it writes. */
export function rooms(ctx: MatchContext): { read: Room[]; write: Room[] } {
  const seated = ctx.state.seat !== null && ctx.state.token !== null;
  if (over(ctx)) return { read: [...ROOMS], write: seated ? [...ROOMS] : identity() ? ["spectators"] : [] };
  if (seated) return { read: ["players"], write: ["players"] };
  return { read: ["spectators"], write: identity() ? ["spectators"] : [] };
}

/** The credential the chat is read and written with: the seat's token, else the player's key. */
function credential(ctx: MatchContext): CallOptions {
  const token = ctx.state.token ?? identity()?.key ?? null;
  return token ? { token } : {};
}

/** Add messages in chat_seq order, each once. */
export function receive(chat: ChatState, messages: readonly ChatMessage[]): ChatMessage[] {
  const known = new Set(chat.messages.map((m) => m.chat_seq));
  const fresh = messages.filter((m) => !known.has(m.chat_seq));
  chat.messages = [...chat.messages, ...fresh].sort((a, b) => a.chat_seq - b.chat_seq);
  return fresh;
}

/** Read the history after the newest message held (from the start with `reset`, and after a
 * reset asked for until a read from the start has succeeded: a failed one is made up for by the
 * next read, whichever asks). */
export async function loadChat(ctx: MatchContext, chat: ChatState, reset = false): Promise<void> {
  if (!chat.available) return;
  if (reset) chat.resetsAsked += 1;
  const asked = chat.resetsAsked;
  const fromStart = chat.resetsDone < asked;
  let after = fromStart ? 0 : (chat.messages.at(-1)?.chat_seq ?? 0);
  try {
    for (;;) {
      const page = await api.getChat(ctx.state.matchId, { after, limit: PAGE }, credential(ctx));
      receive(chat, page.messages);
      if (page.next === null || page.messages.length === 0) break;
      after = page.next;
    }
    if (fromStart) chat.resetsDone = Math.max(chat.resetsDone, asked);
  } catch (error) {
    if (error instanceof NotFound && ctx.state.summary) chat.available = false; // the match exists: no chat here
    else chat.error = describeError(error);
  }
  ctx.update();
}

function author(ctx: MatchContext, m: ChatMessage): string {
  if (m.author.seat !== null && m.author.seat !== undefined) return m.author.name || seatName(ctx, m.author.seat);
  return m.author.name || t("chat.spectator");
}

/** One line for screen readers: who wrote what. */
export function spoken(ctx: MatchContext, m: ChatMessage): string {
  return t("chat.said", { name: author(ctx, m), text: m.text });
}

async function send(ctx: MatchContext, chat: ChatState, room: Room): Promise<void> {
  const text = chat.draft.trim();
  if (!text || chat.sending) return;
  chat.sending = true;
  chat.error = null;
  ctx.update();
  try {
    receive(chat, [await api.postChat(ctx.state.matchId, { room, text }, credential(ctx))]);
    chat.draft = "";
  } catch (error) {
    chat.error = describeError(error);
  } finally {
    chat.sending = false;
    ctx.update();
  }
}

export function chatPanel(ctx: MatchContext, chat: ChatState): HTMLElement | null {
  if (!chat.available || !ctx.state.summary) return null;
  const { read, write } = rooms(ctx);
  const room = chat.room && read.includes(chat.room) ? chat.room : read[0]!;
  const shown = chat.messages.filter((m) => m.room === room);
  const switcher = read.length > 1 ? h("div", { class: "chat-rooms", role: "group", "aria-label": t("chat.rooms") },
    read.map((r) => h("button", { type: "button", "aria-pressed": r === room ? "true" : "false", "data-key": `chat-room-${r}`, "data-room": r,
      onclick: () => { chat.room = r; ctx.update(); } }, t(`chat.room.${r}`)))) : null;
  let writer: HTMLElement;
  if (write.includes(room)) {
    const input = h("input", { type: "text", id: "chat-text", maxlength: MAX_TEXT, value: chat.draft, autocomplete: "off", "data-key": "chat-text", "aria-label": t("chat.message_label", { room: t(`chat.room.${room}`) }) });
    input.addEventListener("input", () => (chat.draft = input.value)); // kept across redraws
    writer = h("form", { class: "inline chat-form", onsubmit: (event: Event) => { event.preventDefault(); void send(ctx, chat, room); } },
      input, h("button", { type: "submit", "data-key": "chat-send", "aria-disabled": chat.sending ? "true" : null }, t("chat.send")));
  } else {
    writer = h("p", { class: "hint" }, room === "players" ? t("chat.players_only") : t("chat.need_player"), room === "spectators" ? [" ", h("a", { href: "#/play" }, t("nav.play"))] : null);
  }
  return h("section", { class: "chat", "aria-labelledby": "chat-title", "data-room": room },
    h("h2", { id: "chat-title" }, t("chat.title"), " ", h("small", {}, t(`chat.room.${room}`))),
    switcher,
    shown.length
      ? h("ol", { class: "chat-log", "aria-label": t("chat.messages") }, shown.map((m) => h("li", { "data-chat-seq": m.chat_seq },
        h("strong", {}, author(ctx, m)), " ", h("time", { datetime: m.at }, dateTime(m.at)), h("br", {}), m.text)))
      : h("p", { class: "empty" }, t("chat.empty")),
    writer,
    chat.error ? h("p", { class: "message error", role: "alert" }, chat.error) : null);
}
