/**
 * The page's routes live in the URL's fragment (`#/`, `#/match/<id>?as=1`), so the server serves
 * one static page and a reload or a shared link opens the same screen. The fragment is never sent
 * to the server: an invite link `#/match/<id>?invite=iv_…` keeps its code out of every log.
 */

export type Route =
  | { page: "lobby" }
  | { page: "match"; matchId: string; params: URLSearchParams };

export function parseRoute(hash: string = location.hash): Route {
  const [path = "", query = ""] = hash.replace(/^#/, "").split("?", 2);
  const parts = path.split("/").filter(Boolean);
  if (parts[0] === "match" && parts[1]) return { page: "match", matchId: decodeURIComponent(parts[1]), params: new URLSearchParams(query) };
  return { page: "lobby" };
}

export function matchHref(matchId: string, params: Record<string, string> = {}): string {
  const query = new URLSearchParams(params).toString();
  return `#/match/${encodeURIComponent(matchId)}${query ? `?${query}` : ""}`;
}

/** The absolute link to share (an invite link for an unlisted match). */
export function absoluteLink(fragment: string): string {
  return `${location.origin}${location.pathname}${fragment}`;
}
