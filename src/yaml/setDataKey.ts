/**
 * Sets `key` on a parsed document's object as data. Plain assignment would take a `__proto__` key for the object's
 * prototype (dropping the key, or re-parenting the object); a ConfigMap key or a patch path may be any string, as it
 * is to kubectl and Karmada, so it is defined as an own property instead.
 */
export function setDataKey(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}
