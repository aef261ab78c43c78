import './abn-lookup.query.ts';
