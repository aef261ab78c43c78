import './organisation.types.ts';
import './organisation.query.ts';
