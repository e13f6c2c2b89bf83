import type { Knex } from '@platform/service-kit';
import type { ImageType } from '../../platform/image-data';

export interface BrandingRow {
  partner_id: string;
  display_name: string | null;
  brand_color: string | null;
  logo: Buffer | null;
  logo_content_type: ImageType | null;
  updated_at: Date;
}

export type BrandingChange = Partial<Pick<BrandingRow, 'display_name' | 'brand_color' | 'logo' | 'logo_content_type'>>;

export async function findBranding(db: Knex, partnerId: string): Promise<BrandingRow | undefined> {
  return (await db('partner_branding').where({ partner_id: partnerId }).first()) as BrandingRow | undefined;
}

/** Creates the partner's branding or changes the fields given; answers the row as it now is. */
export async function upsertBranding(db: Knex, partnerId: string, change: BrandingChange): Promise<BrandingRow> {
  const [row] = await db('partner_branding')
    .insert({ partner_id: partnerId, ...change, updated_at: db.fn.now() })
    .onConflict('partner_id')
    .merge({ ...change, updated_at: db.fn.now() })
    .returning('*');
  return row as BrandingRow;
}
