// A referral's or a commission's review columns as the API shows them, shared by both presenters.

/** A record's review, as the owner sees it: null when nothing held it. */
export function reviewOf(row: { review: string | null; review_reasons: string | null }) {
  return { review: row.review ?? null, review_reasons: row.review_reasons ? (JSON.parse(row.review_reasons) as unknown) : null };
}
