// Container image references, split the way Karmada's imageparser does: `[host[:port]/]repository[:tag][@digest]`.
// The grammar is the one of distribution/reference (no docker.io normalisation). When an image carries both a
// tag and a digest only the tag is kept, as Karmada does.

export interface ImageComponents {
  /** Registry host, optionally with a port; '' when the image names none. */
  hostname: string;
  repository: string;
  tag: string;
  digest: string;
}

export type ParseImageResult = { ok: true; image: ImageComponents } | { ok: false; message: string };

const ALPHANUMERIC = '[a-z0-9]+';
const SEPARATOR = '(?:[._]|__|[-]+)';
const PATH_COMPONENT = `${ALPHANUMERIC}(?:${SEPARATOR}${ALPHANUMERIC})*`;
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN_NAME = `${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*`;
const IPV6_ADDRESS = '\\[(?:[a-fA-F0-9:]+)\\]';
const DOMAIN_AND_PORT = `(?:${DOMAIN_NAME}|${IPV6_ADDRESS})(?::[0-9]+)?`;
const NAME = `(?:${DOMAIN_AND_PORT}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*`;
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][0-9a-fA-F]{32,}';

const REFERENCE = new RegExp(`^(${NAME})(?::(${TAG}))?(?:@(${DIGEST}))?$`);
const ANCHORED_TAG = new RegExp(`^${TAG}$`);
const ANCHORED_DIGEST = new RegExp(`^${DIGEST}$`);
const ANCHORED_NAME = new RegExp(`^(?:(${DOMAIN_AND_PORT})/)?(${PATH_COMPONENT}(?:/${PATH_COMPONENT})*)$`);
const NAME_MAX_LENGTH = 255;
/** Digest algorithms Karmada registers (sha256, and sha384/sha512 via crypto/sha512) with their hex lengths. */
const DIGEST_HEX_LENGTH: Readonly<Record<string, number>> = { sha256: 64, sha384: 96, sha512: 128 };
/** go-digest v1.0.0's DigestRegexpAnchored: lowercase algorithms only, unlike the reference grammar's digest. */
const GO_DIGEST = /^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-zA-Z0-9=_-]+$/;

export function parseImage(image: string): ParseImageResult {
  const match = REFERENCE.exec(image);
  if (!match) {
    if (image === '') return { ok: false, message: 'repository name must have at least one component' };
    if (REFERENCE.test(image.toLowerCase())) return { ok: false, message: 'repository name must be lowercase' };
    return { ok: false, message: 'invalid reference format' };
  }
  const [, name = '', tag = '', digest = ''] = match;
  // distribution/reference counts the path only: the name less what its anchored name pattern takes as a domain (any
  // first segment shaped like one, `library` too).
  if ((ANCHORED_NAME.exec(name)?.[2] ?? name).length > NAME_MAX_LENGTH)
    return { ok: false, message: `repository name must not be more than ${NAME_MAX_LENGTH} characters` };
  if (digest) {
    const problem = validateDigest(digest);
    if (problem) return { ok: false, message: problem };
  }
  const { hostname, repository } = splitHostname(name);
  return { ok: true, image: { hostname, repository, tag, digest: tag ? '' : digest } };
}

/** The first path segment is a host when it contains `.` or `:` or is `localhost`. */
export function splitHostname(name: string): { hostname: string; repository: string } {
  const slash = name.indexOf('/');
  if (slash < 0) return { hostname: '', repository: name };
  const first = name.slice(0, slash);
  if (!/[.:]/.test(first) && first !== 'localhost') return { hostname: '', repository: name };
  return { hostname: first, repository: name.slice(slash + 1) };
}

export function formatImage(image: ImageComponents): string {
  const full = image.hostname === '' ? image.repository : `${image.hostname}/${image.repository}`;
  if (image.tag) return `${full}:${image.tag}`;
  if (image.digest) return `${full}@${image.digest}`;
  return full;
}

export function tagOrDigest(image: ImageComponents): string {
  return image.tag || image.digest;
}

/**
 * Sets the tag when the input is a valid tag, else the digest when it is a valid digest, clearing the other;
 * any other input (for example `v1@sha256:...`) leaves the image unchanged.
 */
export function withTagOrDigest(image: ImageComponents, input: string): ImageComponents {
  if (ANCHORED_TAG.test(input)) return { ...image, tag: input, digest: '' };
  if (ANCHORED_DIGEST.test(input)) return { ...image, tag: '', digest: input };
  return image;
}

/** Drops the tag if there is one, else the digest. */
export function withoutTagOrDigest(image: ImageComponents): ImageComponents {
  return image.tag ? { ...image, tag: '' } : { ...image, digest: '' };
}

function validateDigest(digest: string): string | undefined {
  const colon = digest.indexOf(':');
  const algorithm = digest.slice(0, colon);
  const encoded = digest.slice(colon + 1);
  const length = DIGEST_HEX_LENGTH[algorithm];
  // go-digest's Digest.Validate, whose errors distribution/reference returns as they are: no algorithm named.
  if (length === undefined)
    return GO_DIGEST.test(digest) ? 'unsupported digest algorithm' : 'invalid checksum digest format';
  if (encoded.length !== length) return 'invalid checksum digest length';
  if (!/^[a-f0-9]+$/.test(encoded)) return 'invalid checksum digest format';
  return undefined;
}
