import { customResourceCell, tableCellText } from '../printers/customResourceCell.ts';

type Obj = Record<string, unknown>;

/** One column of a custom resource's Table: priority 0 always, any other only with -o wide. */
export interface PrinterColumn {
  header: string;
  wide: boolean;
  /** `age` is the object's AGE, which flotilla reads from Git history, not from a creationTimestamp. */
  cell: (object: Obj, age: string, now: Date) => string;
}

interface ColumnDefinition {
  name?: unknown;
  type?: unknown;
  jsonPath?: unknown;
  priority?: unknown;
}

const CREATION = '.metadata.creationTimestamp';

/**
 * The columns after NAME that apiextensions-apiserver's table convertor gives a version of a CRD: its
 * additionalPrinterColumns, or AGE when it has none (serveDefaultColumnsIfEmpty). Undefined when the CRD does not have
 * that version. Pure.
 */
export function crdPrinterColumns(crd: Obj, version: string): PrinterColumn[] | undefined {
  const spec = (crd.spec ?? {}) as { versions?: unknown };
  const versions = Array.isArray(spec.versions) ? (spec.versions as Obj[]) : [];
  const found = versions.find((v) => v?.name === version);
  if (!found) return undefined;
  const defined = Array.isArray(found.additionalPrinterColumns)
    ? (found.additionalPrinterColumns as ColumnDefinition[])
    : [];
  const columns = defined.length > 0 ? defined : [{ name: 'Age', type: 'date', jsonPath: CREATION }];
  return columns.map((c) => ({
    header: String(c.name ?? '').toUpperCase(),
    wide: typeof c.priority === 'number' && c.priority !== 0,
    cell: (object, age, now) => {
      if (c.type === 'date' && c.jsonPath === CREATION) return age;
      return tableCellText(customResourceCell(String(c.type ?? ''), object, String(c.jsonPath ?? ''), now.getTime()));
    },
  }));
}
