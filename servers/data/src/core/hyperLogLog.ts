// HyperLogLog (2^14 registers, 16 KiB): a distinct count estimate with a relative standard error of
// 1.04 / sqrt(2^14) ≈ 0.81%, used by profiles once exact counting would outgrow its memory bound.

const PRECISION = 14;
const REGISTERS = 1 << PRECISION;

export const HLL_RELATIVE_ERROR = 1.04 / Math.sqrt(REGISTERS);

export class HyperLogLog {
  private readonly registers = new Uint8Array(REGISTERS);

  /** Adds a value by its 64-bit hash (two well-mixed 32-bit lanes). */
  add(h1: number, h2: number): void {
    const index = h1 >>> (32 - PRECISION);
    const rank = Math.clz32(h2) + 1;
    if (rank > this.registers[index]!) this.registers[index] = rank;
  }

  estimate(): number {
    let sum = 0;
    let zeros = 0;
    for (let i = 0; i < REGISTERS; i++) {
      const register = this.registers[i]!;
      sum += 2 ** -register;
      if (register === 0) zeros++;
    }
    const alpha = 0.7213 / (1 + 1.079 / REGISTERS);
    const raw = (alpha * REGISTERS * REGISTERS) / sum;
    // Small cardinalities: linear counting is the better estimator.
    if (raw <= 2.5 * REGISTERS && zeros > 0) return Math.round(REGISTERS * Math.log(REGISTERS / zeros));
    return Math.round(raw);
  }
}
