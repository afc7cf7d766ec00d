// Runs the built verifier (`verifyMatch` in dist/, so `npm run build` first) over a corpus of
// finished drago-fair-2 matches and their tampered variants, as tests/fairness/corpus.py writes it:
//
//   node scripts/verify-corpus.mjs CORPUS.json
//
// Every reveal must verify; every variant (a patch: `{what, set: [[path, value], ...]}`) must fail
// with a verdict whose `field` starts with the variant's field class (`what` up to its first `[`).
// Prints one JSON line: how many reveals and variants were checked, the field classes tampered
// with, and the first few failures (none when the verifier holds). Exits 1 when anything failed.
import { readFileSync } from "node:fs";

import { verifyMatch } from "../dist/index.js";

function apply(reveal, variant) {
  const changed = structuredClone(reveal);
  for (const [path, value] of variant.set) {
    let node = changed;
    for (const key of path.slice(0, -1)) node = node[key];
    node[path.at(-1)] = value;
  }
  return changed;
}

const corpus = JSON.parse(readFileSync(process.argv[2], "utf-8"));
const failures = [];
const kinds = new Set();
let variants = 0;
for (const { reveal, tampered } of corpus.matches) {
  const catalogue = corpus.catalogues[reveal.game];
  const verdict = await verifyMatch(reveal, catalogue);
  if (!verdict.ok) failures.push({ match: reveal.match_id, what: null, verdict });
  for (const variant of tampered) {
    const bad = await verifyMatch(apply(reveal, variant), catalogue);
    const field = variant.what.split("[")[0];
    if (bad.ok || bad.field === null || !bad.field.startsWith(field)) {
      failures.push({ match: reveal.match_id, what: variant.what, verdict: bad });
    }
    kinds.add(variant.what.split(" ").at(-1).split("[")[0]);
    variants += 1;
  }
}
const summary = { matches: corpus.matches.length, variants, kinds: [...kinds].sort(), failures: failures.slice(0, 10) };
console.log(JSON.stringify(summary));
process.exitCode = failures.length ? 1 : 0;
