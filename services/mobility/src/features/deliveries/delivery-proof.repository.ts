import type { Knex } from '@platform/service-kit/db';
import type { ImageData } from '../../platform/image-data';

export type ProofKind = 'photo' | 'signature';
export const PROOF_KINDS: readonly ProofKind[] = ['photo', 'signature'];

/** The proof-of-delivery images (`delivery_proof_images`); written only inside the delivering transaction. */
export interface DeliveryProofRepository {
  /** Stores the images the courier handed in with the delivery (inside the delivering transaction). */
  insertProofImages(trx: Knex.Transaction, deliveryId: string, images: Partial<Record<ProofKind, ImageData>>): Promise<void>;
}

/** The Postgres proof images table (every write runs in the caller's transaction, so it needs no connection of its own). */
export function createDeliveryProofRepository(): DeliveryProofRepository {
  return {
    async insertProofImages(trx, deliveryId, images) {
      const rows = PROOF_KINDS.filter((kind) => images[kind]).map((kind) => ({ delivery_id: deliveryId, kind, content_type: images[kind]!.contentType, data: images[kind]!.bytes }));
      if (rows.length) await trx('delivery_proof_images').insert(rows);
    },
  };
}
