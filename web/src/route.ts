/**
 * The page's routes live in the URL's fragment (`#/`, `#/match/<id>?as=1`), so the server serves
 * one static page and a reload or a shared link opens the same screen. The fragment is never sent
 * to the server: an invite link `#/match/<id>?invite=iv_…` keeps its code out of every log.
 *
 * A route is its first path segment (`match`), the segments after it (the match id) and the
 * query. main.ts maps the first segment to a page; a new page is one entry there.
 */

export interface Route {
  /** The first path segment: "" for the lobby, "match", … */
  page: string;
  /** The path segments after it, decoded. */
  args: string[];
  params: URLSearchParams;
}

/** A page draws itself into `root`; what it returns stops it (streams, timers) when another opens. */
export interface Page {
  dispose?(): void;
  /** Redraw in the language just chosen, keeping the page's state (else the page is opened anew). */
  relabel?(): void;
}

export function parseRoute(hash: string = location.hash): Route {
  const [path = "", query = ""] = hash.replace(/^#/, "").split("?", 2);
  const [page = "", ...args] = path.split("/").filter(Boolean).map(decodeURIComponent);
  return { page, args, params: new URLSearchParams(query) };
}

export function matchHref(matchId: string, params: Record<string, string> = {}): string {
  const query = new URLSearchParams(params).toString();
  return `#/match/${encodeURIComponent(matchId)}${query ? `?${query}` : ""}`;
}

/** The absolute link to share (an invite link for an unlisted match). */
export function absoluteLink(fragment: string): string {
  return `${location.origin}${location.pathname}${fragment}`;
}
