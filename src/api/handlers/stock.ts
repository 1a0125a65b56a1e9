/** The shop's stock (SPEC §16): its import's preview and confirm, and what it holds. */
import { confirmStockImport, planStockImport } from '../../stock/import.ts';
import type { DocumentRow } from '../../store/documents.ts';
import { stockSummary, type StockSummary } from '../../store/stock.ts';
import type { StockDocumentView, StockInfoView } from '../contract.ts';
import { keepPreview, preview } from './documents.ts';
import { onReader, reads, writes, type PartialCallTable } from './define.ts';

function stockDocumentView(d: DocumentRow): StockDocumentView {
  return { documentId: d.id, fileName: d.fileName, importedAt: d.importedAt };
}

function stockInfoView(s: StockSummary): StockInfoView {
  return { ...s };
}

export const STOCK_CALLS = {
  'stock.preview': onReader((d) => ({ file, locationFrom, acknowledge, colourNumbering }) => {
    const { plan, stock } = planStockImport(
      d.db,
      { file, locationFrom, acknowledge, colourNumbering },
      d.importHooks('preview', file.name),
    );
    return {
      previewId: keepPreview(d, plan.documents),
      fileName: plan.fileName,
      documents: plan.documents.map((doc) => preview(d, doc)),
      refusal: plan.refusal,
      stock: {
        locationFrom: stock.locationFrom,
        locations: stock.locations,
        lotsWithoutLocation: stock.lotsWithoutLocation,
        lotsWithLotId: stock.lotsWithLotId,
        replaces: stock.replaces === null ? null : stockDocumentView(stock.replaces),
      },
    };
  }),
  'stock.import': writes((d) => ({ file, locationFrom, acknowledge, colourNumbering }) => {
    const r = confirmStockImport(
      d.session,
      { file, locationFrom, acknowledge, colourNumbering },
      d.clock,
      d.importHooks('confirm', file.name),
    );
    d.changed('stock import');
    const now = stockSummary(d.db);
    if (now === null) throw new Error('the stock just imported is not the stock');
    return { imported: r.imported, replaced: r.replaced.map(stockDocumentView), stock: stockInfoView(now) };
  }),
  'stock.info': reads((d) => () => {
    const s = stockSummary(d.db);
    return s === null ? null : stockInfoView(s);
  }),
} satisfies PartialCallTable;
