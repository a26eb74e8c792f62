// One change to the browser build Remix's compiler (esbuild) writes to
// public/build: see ADR 068.
//
// An ES module that imports a CommonJS one (React, ReactDOM, the JSX
// runtime, the scheduler) gets its own namespace object from esbuild's
// `__toESM` helper: a new object with one getter defined per export, made
// for every importing module. Polaris alone is hundreds of modules that
// import React, so every page load made thousands of such objects before its
// first render: 60-100 ms of the main thread at 4× CPU throttle on the
// affiliates list (the vitals bench's load profile). Every importer of the
// same CommonJS module gets equal objects (the same getters over the same
// `module.exports`), so the patched helper makes it once per module and
// mode, and hands the same object to every importer.

/**
 * esbuild's minified `__toESM(mod, isNodeMode, target)`:
 * `var p=(b,a,c)=>(c=b!=null?g(j(b)):{},l(a||!b||!b.__esModule?e(c,"default",{value:b,enumerable:!0}):c,b));`
 * (names vary from build to build).
 */
const TO_ESM =
  /var (\w+)=\((\w+),(\w+),(\w+)\)=>\(\4=\2!=null\?(\w+)\((\w+)\(\2\)\):\{\},(\w+)\(\3\|\|!\2\|\|!\2\.__esModule\?(\w+)\(\4,"default",\{value:\2,enumerable:!0\}\):\4,\2\)\);/g;

/** What a patched chunk holds (the shared objects' WeakMap). */
export const SHARED_MARK = "__toESMShared";

/** The chunk's source with `__toESM` made once per module and mode; unchanged when the chunk has no such helper. */
export function shareEsmNamespaces(source: string): { source: string; patched: number } {
  if (source.includes(SHARED_MARK)) return { source, patched: 0 };
  let patched = 0;
  const out = source.replace(TO_ESM, (helper, name: string) => {
    patched++;
    // The original, renamed, makes the object; the new `name` keeps one per
    // module object (a WeakMap: modules are never collected anyway) and
    // mode. A call with an explicit target is passed through unchanged.
    const make = `${SHARED_MARK}Make`;
    return (
      helper.replace(`var ${name}=`, `var ${make}=`) +
      `var ${SHARED_MARK}=new WeakMap(),${name}=(m,n,t)=>{` +
      `if(t!==void 0||m==null||typeof m!="object"&&typeof m!="function")return ${make}(m,n,t);` +
      `let s=${SHARED_MARK}.get(m);if(!s)${SHARED_MARK}.set(m,s=[]);let k=n?1:0;return s[k]||(s[k]=${make}(m,n))};`
    );
  });
  return { source: out, patched };
}

/** Whether a chunk still holds esbuild's unshared helper. */
export function hasUnsharedToEsm(source: string): boolean {
  TO_ESM.lastIndex = 0;
  return TO_ESM.test(source) && !source.includes(SHARED_MARK);
}
