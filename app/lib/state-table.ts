// A table of allowed state changes (from → the states it may move to), and
// the two questions every writer asks it: may this change be made, and which
// states may a write into `to` start from (the guard of a compare-and-set).

export interface StateTable<S extends string> {
  can(from: string, to: S): boolean;
  fromStates(to: S): S[];
}

export function stateTable<S extends string>(
  states: readonly S[],
  transitions: Record<S, readonly S[]>,
): StateTable<S> {
  return {
    can: (from, to) => (transitions as Record<string, readonly string[]>)[from]?.includes(to) ?? false,
    fromStates: (to) => states.filter((from) => transitions[from].includes(to)),
  };
}
