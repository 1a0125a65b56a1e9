/** Order documents in each format brick-work imports, made by the tests. */
export interface DocLine {
  type?: string;
  no?: string;
  name?: string;
  colour?: number;
  colourName?: string;
  qty?: string | number;
  price?: string;
  condition?: string;
  remarks?: string;
}

export function orderXml(
  orders: { id: string; seller?: string; buyer?: string; date?: string; currency?: string; lines: DocLine[] }[],
  options: { declaration?: boolean; root?: 'ORDERS' | 'ORDER' } = {},
): string {
  const order = (o: (typeof orders)[number]) =>
    `<ORDER>
<ORDERID>${o.id}</ORDERID>
${o.seller ? `<SELLER>${o.seller}</SELLER>` : ''}${o.buyer ? `<BUYER>${o.buyer}</BUYER>` : ''}
<ORDERDATE>${o.date ?? '7/22/2012'}</ORDERDATE>
<BASECURRENCYCODE>${o.currency ?? 'USD'}</BASECURRENCYCODE>
${o.lines
  .map(
    (l) => `<ITEM>
<ITEMTYPE>${l.type ?? 'P'}</ITEMTYPE>
<ITEMID>${l.no ?? ''}</ITEMID>
${l.colour === undefined ? '' : `<COLOR>${l.colour}</COLOR>`}
<QTY>${l.qty ?? 1}</QTY>
<PRICE>${l.price ?? '0.10'}</PRICE>
<CONDITION>${l.condition ?? 'N'}</CONDITION>
${l.remarks === undefined ? '' : `<REMARKS>${l.remarks}</REMARKS>`}
<ORDERBATCH>1</ORDERBATCH>
</ITEM>`,
  )
  .join('\n')}
</ORDER>`;
  const body =
    options.root === 'ORDER' && orders.length === 1 && orders[0]
      ? order(orders[0])
      : `<ORDERS>\n${orders.map(order).join('\n')}\n</ORDERS>`;
  return `${options.declaration === false ? '' : '<?xml version="1.0" encoding="UTF-8"?>\n'}${body}\n`;
}

export function inventoryXml(lines: DocLine[], wanted = false): string {
  return `<INVENTORY>\n${lines
    .map(
      (l) =>
        `<ITEM><ITEMTYPE>${l.type ?? 'P'}</ITEMTYPE><ITEMID>${l.no ?? ''}</ITEMID>${l.colour === undefined ? '' : `<COLOR>${l.colour}</COLOR>`}` +
        (wanted
          ? `<MINQTY>${l.qty ?? 1}</MINQTY><MAXPRICE>${l.price ?? '-1.0000'}</MAXPRICE>`
          : `<QTY>${l.qty ?? 1}</QTY><PRICE>${l.price ?? '0.10'}</PRICE>`) +
        `<CONDITION>${l.condition ?? 'N'}</CONDITION>${l.remarks === undefined ? '' : `<REMARKS>${l.remarks}</REMARKS>`}</ITEM>`,
    )
    .join('\n')}\n</INVENTORY>\n`;
}

export function bsx(lines: DocLine[], currency?: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE BrickStoreXML>
<BrickStoreXML>
 <Inventory${currency ? ` Currency="${currency}"` : ''}>
${lines
  .map(
    (l) => `  <Item>
   <ItemID>${l.no ?? ''}</ItemID>
   <ItemTypeID>${l.type ?? 'P'}</ItemTypeID>
${l.colour === undefined ? '' : `   <ColorID>${l.colour}</ColorID>\n`}${l.name ? `   <ItemName>${l.name}</ItemName>\n` : ''}${l.colourName ? `   <ColorName>${l.colourName}</ColorName>\n` : ''}   <Qty>${l.qty ?? 1}</Qty>
   <Price>${l.price ?? '0.000'}</Price>
   <Condition>${l.condition ?? 'N'}</Condition>
${l.remarks ? `   <Remarks>${l.remarks}</Remarks>\n` : ''}  </Item>`,
  )
  .join('\n')}
 </Inventory>
 <GuiState Application="BrickStore" Version="1"><ItemView><SortColumn>8</SortColumn></ItemView></GuiState>
</BrickStoreXML>
`;
}

export function csv(header: string[], rows: (string | number)[][], delimiter = ','): string {
  return `${[header, ...rows].map((r) => r.join(delimiter)).join('\n')}\n`;
}

export function file(name: string, text: string | Uint8Array): { name: string; content: Uint8Array } {
  return { name, content: typeof text === 'string' ? new TextEncoder().encode(text) : text };
}
