import type { Knex } from '@platform/service-kit/db';
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

/** The partner's tracking-page branding (one row per partner). */
export interface BrandingRepository {
  findBranding(partnerId: string): Promise<BrandingRow | undefined>;
  /** Creates the partner's branding or changes the fields given; answers the row as it now is. */
  upsertBranding(partnerId: string, change: BrandingChange): Promise<BrandingRow>;
}

/** The Postgres `partner_branding` table. */
export function createBrandingRepository(db: Knex): BrandingRepository {
  return {
    async findBranding(partnerId) {
      return (await db('partner_branding').where({ partner_id: partnerId }).first()) as BrandingRow | undefined;
    },
    async upsertBranding(partnerId, change) {
      const [row] = await db('partner_branding')
        .insert({ partner_id: partnerId, ...change, updated_at: db.fn.now() })
        .onConflict('partner_id')
        .merge({ ...change, updated_at: db.fn.now() })
        .returning('*');
      return row as BrandingRow;
    },
  };
}
