// Karmada's label keys that several layers write or read, declared once.

/**
 * Karmada's managed label, `karmada.io/managed=true`: every object a Work puts on a member carries it (the rendering
 * writes it, as do the controllers' derived objects); the applier takes over and prunes only objects that carry it,
 * and the status reader lists members' objects by it. A unit may not set it.
 */
export const MANAGED_LABEL = 'karmada.io/managed';
