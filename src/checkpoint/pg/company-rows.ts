/**
 * The rows a company's part of the store reads: its own and those of no company (written before
 * companies were kept: they count for every company). The store seen whole reads every row.
 */

/** The SQL condition (` AND …`) on `column`, or nothing for the store seen whole. The id is an integer, written in the text. */
export function companyRows(company: number | undefined, column = 'company_id'): string {
  return company === undefined ? '' : ` AND (${column} IS NULL OR ${column} = ${Math.trunc(company)})`;
}
