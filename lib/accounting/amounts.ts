/** A line's amount without VAT in CZK, rounded half up to hellers (computed in whole units, free of float error). */
export function lineTotal(quantity: number, unitPrice: number): number {
  return Math.round((Math.round(quantity * 1000) * Math.round(unitPrice * 100)) / 1000) / 100;
}
