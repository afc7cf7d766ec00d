/**
 * A form for a game's options, generated from its JSON Schema (`schemas.options` of `getGame`), so
 * a new option needs no change here. Each property becomes one control: a checkbox (boolean), a
 * select (an enum, or a small choice such as "a seat or null"), a number input (integer), a group
 * of checkboxes (a set of enum values), and for anything richer (a custom track, tile values) a
 * JSON text area. `value()` holds only what differs from the schema's defaults, so `{}` plays the
 * default game exactly as the server defines it.
 */

import { field, h } from "./dom.js";

type Schema = Record<string, any>;

export interface OptionsForm {
  element: HTMLElement;
  /** The options to send; throws an Error naming the field when a JSON field does not parse. */
  value(): Record<string, unknown>;
}

interface Control {
  element: HTMLElement;
  read(): unknown; // undefined: leave the option out
}

const NONE = "\u0000null";

function resolve(root: Schema, schema: Schema): Schema {
  const ref = schema.$ref as string | undefined;
  if (!ref?.startsWith("#/$defs/")) return schema;
  const target = (root.$defs ?? {})[ref.slice("#/$defs/".length)] ?? {};
  const { $ref: _ignored, ...rest } = schema;
  return { ...resolve(root, target), ...rest };
}

const humanize = (name: string): string => name.replaceAll("_", " ");
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

function choices(root: Schema, schema: Schema): unknown[] | null {
  if (Array.isArray(schema.enum)) return schema.enum;
  if (!Array.isArray(schema.oneOf)) return null;
  const values: unknown[] = [];
  for (const option of (schema.oneOf as Schema[]).map((s) => resolve(root, s))) {
    if (option.type === "null") values.push(null);
    else if ("const" in option) values.push(option.const);
    else if (Array.isArray(option.enum)) values.push(...option.enum);
    else if (option.type === "integer" && Number.isInteger(option.minimum) && Number.isInteger(option.maximum) && option.maximum - option.minimum <= 20) {
      for (let n = option.minimum as number; n <= option.maximum; n++) values.push(n);
    } else return null;
  }
  return values;
}

function enumSet(root: Schema, schema: Schema): { values: string[]; nullable: boolean } | null {
  const alternatives = Array.isArray(schema.oneOf) ? (schema.oneOf as Schema[]).map((s) => resolve(root, s)) : [schema];
  const array = alternatives.find((s) => s.type === "array");
  const items = array ? resolve(root, array.items ?? {}) : null;
  if (!items || !Array.isArray(items.enum) || alternatives.some((s) => s !== array && s.type !== "null")) return null;
  return { values: items.enum as string[], nullable: alternatives.some((s) => s.type === "null") };
}

function control(root: Schema, name: string, schema: Schema, id: string): Control {
  const fallback = schema.default;
  if (schema.type === "boolean") {
    const input = h("input", { type: "checkbox", id, name, checked: fallback === true, "data-key": id });
    return { element: input, read: () => input.checked };
  }
  const options = choices(root, schema);
  if (options) {
    const select = h(
      "select",
      { id, name, "data-key": id },
      options.map((option) =>
        h("option", { value: option === null ? NONE : JSON.stringify(option), selected: same(option, fallback) },
          option === null ? "default (none)" : String(option)),
      ),
    );
    return { element: select, read: () => (select.value === NONE ? null : JSON.parse(select.value)) };
  }
  const set = enumSet(root, schema);
  if (set) {
    const boxes = set.values.map((value) => h("input", { type: "checkbox", value, name: `${name}-${value}`, checked: Array.isArray(fallback) && fallback.includes(value) }));
    const element = h("fieldset", { class: "checks", id }, h("legend", {}, humanize(name)), boxes.map((box) => h("label", {}, box, " ", box.value)));
    return {
      element,
      read: () => {
        const chosen = boxes.filter((box) => box.checked).map((box) => box.value);
        return chosen.length === 0 && set.nullable ? null : chosen;
      },
    };
  }
  if (schema.type === "integer") {
    const input = h("input", { type: "number", id, name, step: 1, min: schema.minimum, max: schema.maximum, value: fallback ?? "", "data-key": id });
    return { element: input, read: () => (input.value === "" ? undefined : Number(input.value)) };
  }
  const area = h("textarea", { id, name, rows: 2, placeholder: fallback === undefined ? "JSON" : JSON.stringify(fallback), "data-key": id });
  return {
    element: area,
    read: () => {
      if (area.value.trim() === "") return undefined;
      try {
        return JSON.parse(area.value);
      } catch {
        throw new Error(`option ${humanize(name)}: not valid JSON`);
      }
    },
  };
}

export function optionsForm(root: Schema, prefix: string): OptionsForm {
  const properties = Object.entries((root.properties ?? {}) as Record<string, Schema>);
  const controls = properties.map(([name, raw]) => {
    const schema = resolve(root, raw);
    const made = control(root, name, schema, `${prefix}-${name}`);
    return { name, schema, made };
  });
  const element = h(
    "fieldset",
    { class: "options" },
    h("legend", {}, root.title ?? "Options"),
    controls.map(({ name, schema, made }) =>
      made.element instanceof HTMLFieldSetElement ? made.element : field(humanize(name), made.element, schema.description),
    ),
  );
  return {
    element,
    value() {
      const options: Record<string, unknown> = {};
      for (const { name, schema, made } of controls) {
        const value = made.read();
        if (value !== undefined && !same(value, schema.default)) options[name] = value;
      }
      return options;
    },
  };
}
