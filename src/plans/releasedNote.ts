/** What a released object (preserveResourcesOnDeletion) becomes on its member, as every plan format says it. */
export const RELEASED_NOTE = 'released: left on the member, no longer managed (preserveResourcesOnDeletion)';
