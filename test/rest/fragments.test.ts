/** Named fragments: a route's document gets exactly the fragments it spreads, and every fragment serves a route. */
import { describe, expect, it } from 'vitest';
import { Kind, parse, type FragmentDefinitionNode } from 'graphql';
import { FRAGMENTS, withFragments } from '../../src/rest/fragments.ts';
import { routes } from '../../src/rest/routes/index.ts';

const fragmentNames = (document: string) =>
  parse(document)
    .definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
    .map((d) => d.name.value);

describe('the bridge appends each fragment a document spreads, directly or through another fragment, once', () => {
  it('follows a fragment spread inside a fragment', () => {
    const document = withFragments(
      'query { matrix(input: $input) { ... on MatrixResult { results { ...MatrixFinancierGroupFields } } } }',
    );
    expect(fragmentNames(document).sort()).toEqual(['MatrixApprovalFields', 'MatrixFinancierGroupFields']);
  });

  it('appends a fragment spread twice only once, and nothing for inline fragments', () => {
    const document = withFragments('query { a { ...ErrorFields } b { ...ErrorFields ... on X { y } } }');
    expect(fragmentNames(document)).toEqual(['ErrorFields']);
  });

  it('leaves a document without spreads as it is', () => {
    expect(withFragments('query { me { id } }')).toBe('query { me { id } }');
  });
});

describe('every named fragment is spread by some route', () => {
  it('no fragment is left unused', () => {
    const used = new Set(routes.flatMap((route) => fragmentNames(withFragments(route.document))));
    expect(Object.keys(FRAGMENTS).filter((name) => !used.has(name))).toEqual([]);
  });
});
