/**
 * The page's languages: every string it shows comes from a catalogue (`en.json`, `de.json`: the
 * same keys, `{name}` placeholders, plural forms as `key_one` / `key_other`). The language is the
 * one chosen with the switch (kept in localStorage), else the browser's first language this page
 * speaks, else English. History lines, errors and options are built from the catalogue too: the
 * server's English never reaches the page's text.
 */

import type { Child } from "../dom.js";
import de from "./de.json";
import en from "./en.json";

export type Key = keyof typeof en;
/** Keys with plural forms, named without their `_one` / `_other` suffix. */
export type PluralKey = Key extends infer K ? (K extends `${infer B}_one` ? B : never) : never;
export type Lang = "en" | "de";
export type Params = Record<string, string | number>;

// Typed as the English catalogue: a key missing from the German one fails the type check.
const CATALOGUES: Record<Lang, Record<Key, string>> = { en, de };
export const LANGS: readonly Lang[] = ["en", "de"];
const STORED = "drago:lang";

function initial(): Lang {
  try {
    const stored = localStorage.getItem(STORED);
    if (stored === "en" || stored === "de") return stored;
  } catch {
    // storage refused (private mode): the browser's languages decide
  }
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = tag.toLowerCase().split("-")[0];
    if (base === "de" || base === "en") return base;
  }
  return "en";
}

let current: Lang = initial();
let plurals = new Intl.PluralRules(current);
document.documentElement.lang = current;

export const lang = (): Lang => current;

/** Switch the language, keep the choice in this browser, and tell the page to redraw. */
export function setLang(next: Lang): void {
  current = next;
  plurals = new Intl.PluralRules(next);
  document.documentElement.lang = next;
  try {
    localStorage.setItem(STORED, next);
  } catch {
    // not kept: the switch still holds until the page is closed
  }
  window.dispatchEvent(new Event("langchange"));
}

const PLACEHOLDER = /\{(\w+)\}/g;

/** The text of `key` in the page's language, placeholders filled. */
export function t(key: Key, params: Params = {}): string {
  return CATALOGUES[current][key].replace(PLACEHOLDER, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** `key_one` or `key_other` for `n` (as `{n}`), in the page's language. */
export function tn(key: PluralKey, n: number, params: Params = {}): string {
  const form = plurals.select(n) === "one" ? "one" : "other";
  return t(`${key}_${form}` as Key, { n, ...params });
}

/** Like `t`, with nodes (a card, a token) in the placeholders: the parts, in order. */
export function tx(key: Key, params: Record<string, Child>): Child[] {
  const parts: Child[] = [];
  let at = 0;
  const template = CATALOGUES[current][key];
  for (const match of template.matchAll(PLACEHOLDER)) {
    parts.push(template.slice(at, match.index));
    const name = match[1]!;
    const value = params[name];
    parts.push(value === undefined ? match[0] : (value as Child));
    at = match.index! + match[0].length;
  }
  parts.push(template.slice(at));
  return parts.filter((part) => part !== "");
}

/** `tx` with the plural form for `n` (`{n}` may be given as a node). */
export function txn(key: PluralKey, n: number, params: Record<string, Child> = {}): Child[] {
  const form = plurals.select(n) === "one" ? "one" : "other";
  return tx(`${key}_${form}` as Key, { n, ...params });
}

/** Whether the catalogue has `key` (codes from the server: error codes, event reasons). */
export function has(key: string): key is Key {
  return Object.hasOwn(CATALOGUES.en, key);
}

/** A date and time as people of this language write them. */
export function dateTime(iso: string): string {
  return new Date(iso).toLocaleString(current, { dateStyle: "medium", timeStyle: "short" });
}

/** A list as a sentence: "Ada, Bo and Cy" / "Ada, Bo und Cy". */
export function list(items: readonly string[]): string {
  return new Intl.ListFormat(current, { type: "conjunction" }).format(items);
}
