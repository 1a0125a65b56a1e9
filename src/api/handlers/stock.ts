/** The shop's stock (SPEC §16): its import's preview and confirm, and what it holds. */
import { confirmStockImport, planStockImport } from '../../stock/import.ts';
import { fetchStoreInventory } from '../../stock/lookup.ts';
import { getSetting } from '../../store/settings.ts';
import { missingCredentials } from '../credentials.ts';
import type { DocumentRow } from '../../store/documents.ts';
import { stockSummary, type StockSummary } from '../../store/stock.ts';
import type { StockDocumentView, StockInfoView } from '../contract.ts';
import { keepPreview, preview } from './documents.ts';
import { onReader, reads, startsWork, withCredentials, writes, type PartialCallTable } from './define.ts';

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
  /**
   * The store's inventory from BrickLink, as its download: a file for `stock.preview` and `stock.import`,
   * so the worker sees it before it replaces the stock. Answered here, on the screens' thread, while the
   * job runner thread counts the call and sends it (no write waits for BrickLink); refused like a write
   * on a store that can't be written, as the call is counted in it.
   */
  'stock.lookup': withCredentials(
    startsWork((d) => async () => {
      const credentials = d.ctx.credentials.get();
      if (credentials === null) throw missingCredentials(d.ctx.credentials.whereToEnter);
      const apiUrl = d.ctx.apiUrl ?? getSetting(d.db, 'api-url');
      const fetched =
        d.ctx.jobs.fetchStoreInventory !== undefined
          ? await d.ctx.jobs.fetchStoreInventory(credentials, apiUrl)
          : // No runner thread (the CLI, a test's service): counted and sent in this process.
            await fetchStoreInventory(d.db, d.clock, { credentials, url: apiUrl }, () => d.changed('stock look-up'));
      return {
        file: { name: fetched.name, content: fetched.content },
        fetched: fetched.fetched,
        budget: { ...fetched.budget },
      };
    }),
  ),
} satisfies PartialCallTable;
