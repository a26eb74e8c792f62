import { useRef } from "react";

/**
 * `value`, or the one this hook last returned while the two are equal (by
 * default, the same JSON). A memoised child that takes an array or an object
 * rebuilt on every render (tabs, field errors) then skips the renders where
 * nothing in it changed.
 */
export function useSameWhileEqual<T>(value: T, equal: (a: T, b: T) => boolean = sameJson): T {
  const last = useRef(value);
  if (last.current !== value && !equal(last.current, value)) last.current = value;
  return last.current;
}

export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
