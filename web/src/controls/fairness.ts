/**
 * The fairness check, once the match is over: `GET …/reveal` publishes the secret and the full log.
 * drago-fair-2 matches (docs/fairness.md): the client's independent `verifyMatch` checks the
 * commitment, re-deals the match from the server seed and every seat's seed with the game's
 * catalogue, and follows every draw and reshuffle; the page says "deal verified" or names the first
 * field that differs. Older matches (drago-fair-1): the browser computes SHA-256 of the canonical
 * JSON of `{"deal": <first event's data>, "secret"}`. Either way the commitment must equal the one
 * the server published when it created the match (from the match summary).
 */

import { verifyMatch, type Reveal, type Verdict } from "drago-client";
import { api, describeError } from "../api.js";
import { canonicalJson } from "../canonical.js";
import { button, h } from "../dom.js";
import { t } from "../i18n/index.js";
import type { MatchContext } from "../match/context.js";
import { sha256Hex } from "../sha256.js";

export interface FairnessResult {
  computed: string;
  published: string;
  revealed: string;
  via: string;
  events: number;
  secret: string;
  /** drago-fair-2: the verifier's verdict (re-dealt and every later roll followed). */
  verdict?: Verdict;
}

export async function checkFairness(reveal: Reveal, published: string): Promise<FairnessResult> {
  if (reveal.algorithm === "drago-fair-2") {
    const catalogue = (await api.getGame(reveal.game)).catalogue;
    const verdict = await verifyMatch(reveal, catalogue);
    const events = reveal.events.length;
    return { computed: reveal.commitment, published, revealed: reveal.commitment, via: "Web Crypto", events, secret: reveal.secret, verdict };
  }
  const deal = reveal.events[0]?.data;
  const { hex, via } = await sha256Hex(canonicalJson({ deal, secret: reveal.secret }));
  return { computed: hex, published, revealed: reveal.commitment, via, events: reveal.events.length, secret: reveal.secret };
}

async function run(ctx: MatchContext): Promise<void> {
  ctx.state.ui.fairness = "checking";
  ctx.update();
  try {
    const reveal = await api.revealMatch(ctx.state.matchId);
    ctx.state.ui.fairness = await checkFairness(reveal, ctx.state.summary?.commitment ?? "");
  } catch (error) {
    ctx.state.ui.fairness = t("fair.unreadable", { error: describeError(error) });
  }
  ctx.update();
}

export function fairnessPanel(ctx: MatchContext): HTMLElement | null {
  const status = ctx.state.summary?.status;
  if (status !== "finished" && status !== "aborted") return null;
  const state = ctx.state.ui.fairness as FairnessResult | string | undefined;
  if (state === undefined) queueMicrotask(() => void run(ctx));
  let body: Node | string = t("fair.checking");
  if (typeof state === "string" && state !== "checking") body = state;
  if (typeof state === "object") {
    const verdict = state.verdict;
    const ok = state.computed === state.published && state.computed === state.revealed && (verdict?.ok ?? true);
    const said = verdict
      ? verdict.ok && ok ? t("fair.verified") : t("fair.differs", { field: verdict.field ?? t("fair.published") })
      : ok ? t("fair.ok") : t("fair.bad");
    body = h("div", { "data-fair": ok ? "yes" : "no", "data-algorithm": verdict ? "drago-fair-2" : "drago-fair-1" },
      h("p", { class: ok ? "ok" : "bad", role: "status" }, said),
      h("dl", {},
        h("dt", {}, t("fair.published")), h("dd", {}, h("code", { "data-commitment": "published" }, state.published)),
        h("dt", {}, t("fair.computed", { via: t(state.via === "Web Crypto" ? "fair.via_webcrypto" : "fair.via_plain") })), h("dd", {}, h("code", { "data-commitment": "computed" }, state.computed)),
        h("dt", {}, t("fair.secret")), h("dd", {}, h("code", {}, state.secret)),
        h("dt", {}, t("fair.log")), h("dd", {}, t("fair.log_events", { n: state.events }))));
  }
  return h("section", { class: "fairness", "aria-labelledby": "fairness-title" },
    h("h2", { id: "fairness-title" }, t("fair.title")), body,
    typeof state === "string" && state !== "checking" ? button(t("fair.again"), () => void run(ctx)) : null);
}
