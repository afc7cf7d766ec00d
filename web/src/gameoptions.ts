/**
 * Each game's options, in plain words with the rulebooks' terms: what the page offers for each
 * option the server's schema (`schemas.options` of `getGame`) lists. The schema decides which
 * options exist and their defaults; this table decides how a person chooses them. An option the
 * page has no words for (a newer server's) is not offered, so it keeps the server's default, and
 * so is Mount Drago's custom track (the board side for the player count is the rulebook's) and
 * Yutakâ's tile values (the reconstructed values the server publishes). Only what differs from
 * the schema's default is sent.
 */

import { h } from "./dom.js";
import { t, type Key } from "./i18n/index.js";

type Schema = Record<string, any>;

interface Choice {
  value: unknown;
  label: string;
  hint?: string;
}

interface Spec {
  name: string;
  /** Shown among the common choices; else under "more options". */
  common?: boolean;
  label: Key;
  hint?: Key;
  /** A checkbox when absent; a select of these, else. */
  choices?: (players: number) => Choice[];
  /** A set of checkboxes, one per value. */
  set?: () => Choice[];
  /** Shown only when this holds for the values chosen so far. */
  when?: (values: Record<string, unknown>) => boolean;
}

const seatChoices = (players: number): Choice[] => Array.from({ length: players }, (_, seat) => ({ value: seat, label: t("match.seat", { n: seat + 1 }) }));
const TYPES = ["idol", "dagger", "amphora", "crystal", "equipment"] as const;

const SPECS: Record<string, readonly Spec[]> = {
  mount_drago: [
    { name: "first_player", label: "opt.first_player", choices: (players) => [{ value: null, label: t("opt.first_random") }, ...seatChoices(players)] },
    { name: "negative_floor", label: "opt.md.negative_floor", hint: "opt.md.negative_floor_hint" },
    { name: "zero_scoring_counts", label: "opt.md.zero_scoring_counts", hint: "opt.md.zero_scoring_counts_hint" },
    { name: "refill_after_discard_empty", label: "opt.md.refill_after_discard_empty", hint: "opt.md.refill_after_discard_empty_hint" },
    { name: "explicit_end_turn", label: "opt.explicit_end_turn", hint: "opt.md.explicit_end_turn_hint" },
  ],
  yutaka: [
    { name: "mode", common: true, label: "opt.yu.mode", choices: () => (["mysteria", "tactika", "mixed"] as const).map((mode) => ({
      value: mode, label: t(`yu.mode.${mode}`), hint: t(`opt.yu.mode_${mode}_hint`) })) },
    { name: "known_types", common: true, label: "opt.yu.known_types", hint: "opt.yu.known_types_hint", when: (v) => v.mode === "mixed",
      set: () => TYPES.map((type) => ({ value: type, label: t(`yu.kind.${type}`) })) },
    { name: "first_player", label: "opt.yu.first_player", choices: (players) => [...seatChoices(players), { value: "random", label: t("opt.first_random") }] },
    { name: "stacked", label: "opt.yu.stacked", hint: "opt.yu.stacked_hint" },
    { name: "tie_break", label: "opt.yu.tie_break", choices: () => (["equipment_tiles", "equipment_points", "shared"] as const).map((rule) => ({
      value: rule, label: t(`opt.yu.tie_${rule}`) })) },
    { name: "explicit_end_turn", label: "opt.explicit_end_turn", hint: "opt.yu.explicit_end_turn_hint" },
  ],
};

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

interface Control {
  spec: Spec;
  element: HTMLElement;
  read(): unknown;
}

export interface OptionsForm {
  /** The common options, and the ones folded under "more options". */
  common: HTMLElement[];
  more: HTMLElement[];
  value(): Record<string, unknown>;
  /** Show or hide the options that depend on others (call after a change). */
  sync(): void;
}

function control(spec: Spec, id: string, fallback: unknown, players: number): Control {
  if (spec.choices) {
    const choices = spec.choices(players);
    const select = h("select", { id, "data-key": id },
      choices.map((choice, i) => h("option", { value: String(i), selected: same(choice.value, fallback) }, choice.label)));
    const hint = h("small", { id: `${id}-hint` });
    const describe = () => (hint.textContent = choices[Number(select.value)]?.hint ?? (spec.hint ? t(spec.hint) : ""));
    select.addEventListener("change", describe);
    describe();
    select.setAttribute("aria-describedby", `${id}-hint`);
    const element = h("div", { class: "field" }, h("label", { for: id, class: "label" }, t(spec.label)), select, hint);
    return { spec, element, read: () => choices[Number(select.value)]?.value };
  }
  if (spec.set) {
    const chosen = Array.isArray(fallback) ? fallback : fallback === null ? ["idol", "dagger"] : [];
    const boxes = spec.set().map((choice) => ({ choice, box: h("input", { type: "checkbox", id: `${id}-${String(choice.value)}`, checked: chosen.includes(choice.value) }) }));
    const element = h("fieldset", { class: "checks", id, "aria-describedby": spec.hint ? `${id}-hint` : null },
      h("legend", {}, t(spec.label)),
      boxes.map(({ choice, box }) => h("label", {}, box, " ", choice.label)),
      spec.hint ? h("small", { id: `${id}-hint` }, t(spec.hint)) : null);
    return { spec, element, read: () => boxes.filter(({ box }) => box.checked).map(({ choice }) => choice.value) };
  }
  const box = h("input", { type: "checkbox", id, checked: fallback === true, "data-key": id });
  const element = h("div", { class: "field check" }, box, h("label", { for: id }, t(spec.label)), spec.hint ? h("small", { id: `${id}-hint` }, t(spec.hint)) : null);
  if (spec.hint) box.setAttribute("aria-describedby", `${id}-hint`);
  return { spec, element, read: () => box.checked };
}

/** The options form of `game` for `players` seats, from its options schema. */
export function optionsForm(game: string, schema: Schema, players: number): OptionsForm {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const controls = (SPECS[game] ?? [])
    .filter((spec) => spec.name in properties)
    .map((spec) => control(spec, `option-${game}-${spec.name}`, properties[spec.name]!.default, players));
  const value = (): Record<string, unknown> => {
    const options: Record<string, unknown> = {};
    for (const { spec, element, read } of controls) {
      if (element.hidden) continue;
      const chosen = read();
      if (!same(chosen, properties[spec.name]!.default)) options[spec.name] = chosen;
    }
    return options;
  };
  const sync = () => {
    const chosen: Record<string, unknown> = {};
    for (const { spec, read } of controls) chosen[spec.name] = read();
    for (const { spec, element } of controls) element.hidden = spec.when ? !spec.when(chosen) : false;
  };
  sync();
  return {
    common: controls.filter((c) => c.spec.common).map((c) => c.element),
    more: controls.filter((c) => !c.spec.common).map((c) => c.element),
    value,
    sync,
  };
}
