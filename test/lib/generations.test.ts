/** The generation stamps the engines reuse their scratch arrays with (src/lib/generations.ts). */
import { describe, expect, it } from 'vitest';
import { nextGeneration } from '../../src/lib/generations.ts';

describe('Generation stamps: an entry is set only when it equals the current generation', () => {
  it('each call answers the next generation and clears nothing', () => {
    const holder = { generation: 0 };
    const stamps = new Uint32Array(4);
    expect(nextGeneration(holder, stamps)).toBe(1);
    stamps[2] = 1;
    expect(nextGeneration(holder, stamps)).toBe(2);
    expect(holder.generation).toBe(2);
    expect([...stamps]).toEqual([0, 0, 1, 0]); // stale, not cleared: it no longer matches
  });
});

describe('Generation stamps: before the counter outgrows a Uint32Array entry, the arrays are cleared and counting restarts', () => {
  it('at the last generation an entry can hold, both arrays are cleared and the next generation is 1', () => {
    const holder = { generation: 0xfffffffe };
    const seen = new Uint32Array([0xfffffffe, 1, 7]);
    const alsoSeen = new Uint32Array([1, 0xfffffffe]);
    expect(nextGeneration(holder, seen, alsoSeen)).toBe(1);
    expect([...seen]).toEqual([0, 0, 0]); // an entry stamped 1 long ago cannot read as set in the new generation 1
    expect([...alsoSeen]).toEqual([0, 0]);
  });
  it('the generation before it still just counts up', () => {
    const holder = { generation: 0xfffffffd };
    const seen = new Uint32Array([5]);
    expect(nextGeneration(holder, seen)).toBe(0xfffffffe);
    expect(seen[0]).toBe(5);
    expect(new Uint32Array([holder.generation])[0]).toBe(0xfffffffe); // held exactly by an entry
  });
});
