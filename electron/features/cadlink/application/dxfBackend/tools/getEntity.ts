import { z } from 'zod';
import { AppError } from '../../../../../../shared/errors';
import { entityJson } from '../../../../drawing';
import { defineTool, jsonResult } from '../session';

export const getEntity = defineTool({
  name: 'get_entity',
  description: 'One entity by handle (hex), with its geometry and, for block references, its attributes. Fails with CAD_DXF_ENTITY_NOT_FOUND.',
  input: z.object({ handle: z.string().regex(/^[0-9A-Fa-f]{1,16}$/) }).strict(),
  run(session, input) {
    const entity = session.doc.entitiesByHandle.get(input.handle.toUpperCase());
    if (!entity) throw new AppError('CAD_DXF_ENTITY_NOT_FOUND', `no entity with handle ${input.handle}`, { data: { handle: input.handle } });
    return jsonResult(entityJson(session.index, entity));
  },
});
