// A tiny schema language for Karmada's YAML kinds: just enough to say which fields exist, which are
// required, and what type and range each value has. Pure data; validateAgainstSchema.ts interprets it.

export type Schema =
  | {
      type: 'object';
      /** Known fields. A key not listed here is UNKNOWN_FIELD unless `additional` or `open` allows it. */
      fields: Record<string, Schema>;
      /** Fields that must be present and not null. */
      required?: string[];
      /** Schema for the values of a map whose keys are free (labels, annotations, resource lists). */
      additional?: Schema;
      /** Any other key is allowed and not checked (status passthrough, arbitrary JSON). */
      open?: boolean;
    }
  | { type: 'array'; items: Schema; minItems?: number }
  | { type: 'string'; enum?: string[]; pattern?: RegExp; maxLength?: number }
  | { type: 'integer'; minimum?: number; maximum?: number }
  | { type: 'number' }
  | { type: 'boolean' }
  | { type: 'any' }
  /** Kubernetes IntOrString: an integer or a string. */
  | { type: 'intOrString' }
  /** Kubernetes resource.Quantity: a number, or a string such as "500m", "16Gi", "1e3". */
  | { type: 'quantity' };

export type ObjectSchema = Extract<Schema, { type: 'object' }>;
