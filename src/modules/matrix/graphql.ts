/** The matrix module's GraphQL registrations. */
import './matrix.types.ts';
import './matrix.query.ts';
import './matrix-calculator.query.ts';
