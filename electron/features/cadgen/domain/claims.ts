import { z } from 'zod';

/** A claims file: machine-checkable acceptance claims evaluated against a rebuild. */
export const claimsFileSchema = z
  .object({
    claims: z
      .array(
        z
          .object({
            id: z.string().regex(/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/),
            kind: z.string().regex(/^[a-z][a-z0-9_]{1,40}$/),
            description: z.string().max(500).optional(),
            expected: z.record(z.string(), z.unknown()),
          })
          .strict(),
      )
      .min(1)
      .max(200),
  })
  .strict();

export type ClaimsFile = z.infer<typeof claimsFileSchema>;
export type Claim = ClaimsFile['claims'][number];
