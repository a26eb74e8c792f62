import type { Tree } from "./translation-check";

// The pseudo-locale (en-XA): every English string with accented letters,
// about 40 % longer and in brackets. A screen rendered in it shows at a glance
// text that is cut ("[Šàṽé" without its "]"), that overflows its box when a
// language runs longer than English, or that never went through i18next
// (plain English among accented text). Placeholders, tags and $t() nestings
// are kept exactly, so interpolation still works.

const ACCENTED: Record<string, string> = {
  a: "à", b: "ƀ", c: "ç", d: "ð", e: "é", f: "ƒ", g: "ĝ", h: "ĥ", i: "î", j: "ĵ", k: "ķ", l: "ļ", m: "ɱ",
  n: "ñ", o: "ö", p: "þ", q: "ǫ", r: "ŕ", s: "š", t: "ţ", u: "û", v: "ṽ", w: "ŵ", x: "ẋ", y: "ý", z: "ž",
  A: "Å", B: "Ɓ", C: "Ç", D: "Ð", E: "É", F: "Ƒ", G: "Ĝ", H: "Ĥ", I: "Î", J: "Ĵ", K: "Ķ", L: "Ļ", M: "Ṁ",
  N: "Ñ", O: "Ö", P: "Þ", Q: "Ǫ", R: "Ŕ", S: "Š", T: "Ţ", U: "Û", V: "Ṽ", W: "Ŵ", X: "Ẋ", Y: "Ý", Z: "Ž",
}; // prettier-ignore

// Parts that must survive untouched: {{placeholders}}, <tags>, $t(nestings),
// and addresses (a URL or /path shown as an example must stay usable).
const KEEP = /(\{\{[^}]*\}\}|<\/?[A-Za-z0-9]+\s*\/?>|\$t\([^)]*\)|https?:\/\/\S+|\/[a-z0-9_./-]+)/g;

const PAD_WORDS = ["ļöŕéɱ", "îþšûɱ", "ðöļöŕ", "šîţ", "àɱéţ", "çöñšéç"];

/** Visible letters of a string: what a reader sees, without the kept parts. */
function visibleLength(text: string): number {
  return text.replace(KEEP, "").length;
}

export function pseudoString(text: string): string {
  const accented = text
    .split(KEEP)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/[A-Za-z]/g, (c) => ACCENTED[c] ?? c)))
    .join("");
  // About 40 % longer: German and Finnish run 30-40 % longer than English,
  // and short labels even more.
  const target = Math.max(2, Math.round(visibleLength(text) * 0.4));
  let pad = "";
  for (let i = 0; pad.length < target; i++) pad += (pad ? " " : "") + PAD_WORDS[i % PAD_WORDS.length];
  return `[${accented} ${pad.slice(0, target).trimEnd()}]`;
}

export function pseudoTree(tree: Tree): Tree {
  const out: Tree = {};
  for (const [key, value] of Object.entries(tree)) {
    out[key] = typeof value === "string" ? pseudoString(value) : pseudoTree(value);
  }
  return out;
}
