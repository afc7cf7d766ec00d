/**
 * The reference web client of the Mount Drago and Yutakâ game server: the page's frame (skip link,
 * header with the navigation and the language switch, footer) and its pages, switched by the
 * URL's fragment (route.ts). Everything a page shows comes from the public API and the match
 * streams, through the TypeScript client in clients/typescript, in words from the catalogues.
 *
 * A page is one entry in PAGES and, if it belongs in the navigation, one in NAV: the community
 * pages (quick play, my matches, a player's profile, the leaderboards) live in community/.
 */

import { leaderboardPage } from "./community/leaderboard.js";
import { myMatchesPage } from "./community/mine.js";
import { profilePage } from "./community/profile.js";
import { quickPlayPage } from "./community/quickplay.js";
import { h, replaceChildren } from "./dom.js";
import { lang, LANGS, setLang, t, type Key, type Lang } from "./i18n/index.js";
import { lobbyPage } from "./lobby.js";
import { matchPage } from "./match/page.js";
import { parseRoute, type Page, type Route } from "./route.js";

type Open = (root: HTMLElement, route: Route) => Page;

function notFound(root: HTMLElement): Page {
  replaceChildren(root, h("main", { id: "main" }, h("h1", {}, t("nav.not_found")), h("p", {}, h("a", { href: "#/" }, t("nav.back_to_lobby")))));
  return {};
}

const PAGES: Record<string, Open> = {
  "": (root) => lobbyPage(root),
  match: (root, route) => (route.args[0] ? matchPage(root, route.args[0], route.params) : notFound(root)),
  play: (root, route) => quickPlayPage(root, route),
  me: (root) => myMatchesPage(root),
  player: (root, route) => (route.args[0] ? profilePage(root, route.args[0]) : notFound(root)),
  leaderboard: (root, route) => leaderboardPage(root, route),
};

/** The main navigation, in order. */
const NAV: readonly { href: string; page: string; label: Key }[] = [
  { href: "#/", page: "", label: "nav.lobby" },
  { href: "#/play", page: "play", label: "nav.play" },
  { href: "#/me", page: "me", label: "nav.mine" },
  { href: "#/leaderboard", page: "leaderboard", label: "nav.leaderboards" },
];

const LANG_NAMES: Record<Lang, string> = { en: "English", de: "Deutsch" };

const root = document.getElementById("app")!;
let current: Page = {};

function frame(): void {
  const route = parseRoute();
  const select = h("select", { id: "lang", "data-key": "lang" },
    LANGS.map((code) => h("option", { value: code, lang: code, selected: code === lang() }, LANG_NAMES[code])));
  select.addEventListener("change", () => setLang(select.value as Lang));
  replaceChildren(document.getElementById("top")!,
    h("a", { href: "#/", class: "brand" }, "Mount Drago · Yutakâ"),
    h("nav", { "aria-label": t("nav.main") }, h("ul", {}, NAV.map((item) =>
      h("li", {}, h("a", { href: item.href, "aria-current": route.page === item.page ? "page" : null }, t(item.label)))))),
    h("div", { class: "lang" }, h("label", { for: "lang" }, t("nav.language")), select));
  const foot = document.getElementById("foot")!;
  replaceChildren(foot, h("a", { href: "/docs" }, t("nav.api_docs")), " · ", h("a", { href: "/redoc" }, t("nav.api_reference")));
  const skip = document.getElementById("skip")!;
  skip.textContent = t("nav.skip");
}

function show(): void {
  current.dispose?.();
  const route = parseRoute();
  frame();
  current = (PAGES[route.page] ?? notFound)(root, route);
  window.scrollTo(0, 0);
}

// The skip link moves the focus to the page's <main> without touching the fragment (the route).
document.getElementById("skip")!.addEventListener("click", (event) => {
  event.preventDefault();
  const main = document.querySelector<HTMLElement>("main");
  if (!main) return;
  main.setAttribute("tabindex", "-1");
  main.addEventListener("blur", () => main.removeAttribute("tabindex"), { once: true });
  main.focus();
});

window.addEventListener("langchange", () => {
  frame();
  if (current.relabel) current.relabel();
  else show();
});
window.addEventListener("hashchange", show);
show();
