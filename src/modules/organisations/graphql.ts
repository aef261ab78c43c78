import './organisation.types.ts';
import './organisation.query.ts';
import './organisation-view.query.ts';
