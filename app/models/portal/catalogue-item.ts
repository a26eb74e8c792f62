// What a catalogue picker lists and the merchant's forms show for a chosen
// product or collection (catalogue-search.server.ts fills it).

export type CatalogueKind = "product" | "collection";

export interface CatalogueItem {
  gid: string;
  title: string;
  imageUrl: string | null;
  // Minor units of the shop currency; collections have none.
  price: number | null;
}

export interface CataloguePage {
  items: CatalogueItem[];
  // Offset of the next page, or null on the last one.
  next: number | null;
}
