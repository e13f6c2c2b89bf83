import { FairShare } from '../src/fair-share';

describe('FairShare: a total no group of holders can take from another', () => {
  it('admits anyone while units are free, and nobody past the total until a newcomer asks', () => {
    const slots = new FairShare(4);
    expect(slots.admits('a', 3)).toBe(true);
    slots.take('a', 3);
    slots.take('b', 1);
    expect(slots.inUse).toBe(4);
    // Full: both holders are at or over their share (4 / 2), so neither may take more.
    expect(slots.admits('a', 1)).toBe(false);
    expect(slots.admits('b', 1)).toBe(true); // b holds 1, under its share of 2
    slots.take('b', 1);
    expect(slots.admits('b', 1)).toBe(false);
  });

  it("gives a newcomer its first unit however many holders filled the total, and forgets a holder that gave everything back", () => {
    const slots = new FairShare(10);
    for (const holder of ['a', 'b', 'c', 'd']) slots.take(holder, 5);
    expect(slots.inUse).toBe(20);
    expect(slots.shareOf('bystander')).toBe(2);
    expect(slots.admits('bystander', 1)).toBe(true);
    expect(slots.admits('a', 1)).toBe(false);
    slots.give('a', 5);
    expect(slots.heldBy('a')).toBe(0);
    expect(slots.shareOf('bystander')).toBe(10 / 4);
  });
});
