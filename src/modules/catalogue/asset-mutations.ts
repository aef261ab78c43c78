/**
 * Asset maintenance: createAsset, updateAsset, deleteAsset, restoreAsset. Spec Authentication 10: asset edits need
 * permission to edit equipment (`change_equipment`: the operator's grant, which no organisation admin holds by being
 * one), and, as every change, a session or a read_write API token (5). The rules live in assets.service.ts;
 * docs/asset-tree.md.
 */
import { builder } from '../../graphql/builder.ts';
import { NotFoundError, ValidationError } from '../../lib/errors.ts';
import { AssetRef } from './asset.types.ts';
import { MAX_ASSET_ALIAS_LENGTH, MAX_ASSET_NAME_LENGTH } from './asset-tree.ts';
import { createAsset, deleteAsset, restoreAsset, updateAsset } from './assets.service.ts';

const EDIT_EQUIPMENT = { $all: { write: true, permission: 'change_equipment' } } as const;

const CreateAssetInput = builder.inputType('CreateAssetInput', {
  description: 'A new node of the asset tree: a category or an actual asset',
  fields: (t) => ({
    name: t.string({ required: true, description: `1 to ${MAX_ASSET_NAME_LENGTH} characters after trimming` }),
    alias: t.string({ description: `Comma-separated alternative names, at most ${MAX_ASSET_ALIAS_LENGTH} characters` }),
    parent_id: t.int({ description: 'The parent category or asset; absent or null: the top of the tree' }),
    is_asset: t.boolean({ description: 'true (default): an actual asset; false: a category' }),
  }),
});

const UpdateAssetInput = builder.inputType('UpdateAssetInput', {
  description: 'Absent fields stay as they are',
  fields: (t) => ({
    name: t.string({ description: `1 to ${MAX_ASSET_NAME_LENGTH} characters after trimming` }),
    alias: t.string({ description: 'null or empty clears it' }),
    parent_id: t.int({
      description:
        'Moves the node under this one (null: to the top). Refused when it would make a cycle, or the parent is deleted',
    }),
    is_deleted: t.boolean({
      description:
        'true: marks the node deleted, as deleteAsset; false: restores it, as restoreAsset (null is refused). Applied with the other fields, in one change',
    }),
  }),
});

builder.mutationField('createAsset', (t) =>
  t.prismaField({
    type: AssetRef,
    description: 'Adds a node to the asset tree (needs permission to edit equipment)',
    authScopes: EDIT_EQUIPMENT,
    args: { input: t.arg({ type: CreateAssetInput, required: true, description: 'The new node' }) },
    errors: { types: [ValidationError], directResult: true },
    resolve: (query, _root, args, ctx) => createAsset(ctx, args.input, query),
  }),
);

builder.mutationField('updateAsset', (t) =>
  t.prismaField({
    type: AssetRef,
    description:
      'Renames, re-aliases, moves, deletes or restores a node of the asset tree (PATCH /assets/{id}); needs permission to edit equipment',
    authScopes: EDIT_EQUIPMENT,
    args: {
      id: t.arg.int({ required: true, description: 'The node to change (a deleted one included)' }),
      input: t.arg({ type: UpdateAssetInput, required: true, description: 'The fields to change' }),
    },
    errors: { types: [NotFoundError, ValidationError], directResult: true },
    resolve: (query, _root, args, ctx) => updateAsset(ctx, args.id, args.input, query),
  }),
);

builder.mutationField('deleteAsset', (t) =>
  t.prismaField({
    type: AssetRef,
    description:
      'Marks a node deleted: it and everything beneath it leave search and pricing; rows, mappings and children stay. Needs permission to edit equipment',
    authScopes: EDIT_EQUIPMENT,
    args: {
      id: t.arg.int({ required: true, description: 'The node to delete; deleting a deleted one changes nothing' }),
    },
    errors: { types: [NotFoundError], directResult: true },
    resolve: (query, _root, args, ctx) => deleteAsset(ctx, args.id, query),
  }),
);

builder.mutationField('restoreAsset', (t) =>
  t.prismaField({
    type: AssetRef,
    description: 'Undoes deleteAsset: the node and its subtree return as they were; needs permission to edit equipment',
    authScopes: EDIT_EQUIPMENT,
    args: {
      id: t.arg.int({ required: true, description: 'The node to restore; restoring a live one changes nothing' }),
    },
    errors: { types: [NotFoundError], directResult: true },
    resolve: (query, _root, args, ctx) => restoreAsset(ctx, args.id, query),
  }),
);
