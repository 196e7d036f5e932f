import type { OwnerReference } from '../api/metadataShapes.ts';

/** An object as a printer reads it: JSON data, its metadata the fields the columns look at. */
export interface PrintedObject {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name?: string;
    namespace?: string;
    creationTimestamp?: string;
    deletionTimestamp?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    ownerReferences?: OwnerReference[];
    [key: string]: unknown;
  };
  spec?: any;
  status?: any;
  [key: string]: any;
}

/** One column of a server-side Table, with the function that fills its cell. */
export interface PrintColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  format?: string;
  description?: string;
  /** 0 = default output, 1 = only with `-o wide`. */
  priority: 0 | 1;
  cell: (obj: PrintedObject, now: number) => string | number | boolean | null;
}
