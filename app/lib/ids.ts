// The shape of every id the app hands out or accepts in a URL, a query or a
// body (cuid/uuid and the ids of imported rows): letters, digits, _ and -.
// Checked at every door and in every schema that takes one.
export const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
