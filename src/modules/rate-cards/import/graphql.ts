import './import.types.ts';
import './preview-rate-card-import.query.ts';
import './apply-rate-card-import.mutation.ts';
