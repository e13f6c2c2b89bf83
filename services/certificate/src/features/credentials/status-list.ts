import { gzipSync } from 'node:zlib';

/**
 * Revocation is published as W3C Bitstring Status Lists: every certificate gets a position at issue (a sequence,
 * stored), which names a list and a bit in it. The bit is 1 when the certificate is revoked. Each list holds
 * 131,072 bits (16 KB, the minimum the specification asks for, so a list says little about any one holder).
 */
export const STATUS_LIST_SIZE = 131_072;

export interface StatusListEntryRef {
  list: number;
  index: number;
}

/** Position 0 is list 1 bit 0; position 131,072 is list 2 bit 0. */
export function statusListEntryOf(position: number): StatusListEntryRef {
  return { list: Math.floor(position / STATUS_LIST_SIZE) + 1, index: position % STATUS_LIST_SIZE };
}

export function firstPositionOf(list: number): number {
  return (list - 1) * STATUS_LIST_SIZE;
}

/** The list's bits, left-most first (bit 0 is the most significant bit of byte 0), gzipped, multibase base64url (`u…`). */
export function encodeStatusList(setIndexes: Iterable<number>): string {
  const bits = Buffer.alloc(STATUS_LIST_SIZE / 8);
  for (const index of setIndexes) bits[index >> 3]! |= 0x80 >> (index & 7);
  return `u${gzipSync(bits).toString('base64url')}`;
}

export function statusListUrl(publicBaseUrl: string, list: number): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/credentials/status/${list}`;
}

/** The `credentialStatus` entry of a credential at `position`. */
export function statusListEntry(publicBaseUrl: string, position: number) {
  const { list, index } = statusListEntryOf(position);
  const listUrl = statusListUrl(publicBaseUrl, list);
  return {
    id: `${listUrl}#${index}`,
    type: 'BitstringStatusListEntry',
    statusPurpose: 'revocation',
    statusListIndex: String(index),
    statusListCredential: listUrl,
  };
}
