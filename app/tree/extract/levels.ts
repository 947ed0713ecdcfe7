/**
 * Branches found in the wood into a TreeSkeleton, with levels capped as the L-system turtle caps
 * them: a branch past MAX_LEVELS hangs off its level-3 ancestor (where that one leaves its own
 * parent), with `branchOrigin` the node it physically grows from.
 */
import { MAX_LEVELS, SkeletonBuilder, type TreeSkeleton } from "../skeleton";

export class CappedSkeletonBuilder {
  private readonly builder = new SkeletonBuilder();
  private readonly level: number[] = [];
  private readonly attachX: number[] = [];
  private readonly parentBranch: number[] = [];

  get branchCount(): number {
    return this.builder.branchCount;
  }

  /** Adds the trunk; returns its branch index. */
  addTrunk(): number {
    const b = this.builder.addBranch(-1, 0);
    this.level.push(0);
    this.attachX.push(0);
    this.parentBranch.push(-1);
    return b;
  }

  /** Adds a branch growing from node `originNode` of branch `from`, at `x` along it (arc-length fraction); returns its index. */
  addChild(from: number, x: number, originNode: number): number {
    let parent = from, at = x;
    while (parent >= 0 && this.level[parent] + 1 >= MAX_LEVELS) {
      at = this.attachX[parent];
      parent = this.parentBranch[parent];
    }
    const b = this.builder.addBranch(parent, at, null, { branch: from, node: originNode });
    this.level.push(parent < 0 ? 0 : this.level[parent] + 1);
    this.attachX.push(at);
    this.parentBranch.push(parent);
    return b;
  }

  addNode(branch: number, x: number, y: number, z: number, radius: number): void {
    this.builder.addNode(branch, x, y, z, radius);
  }

  build(): TreeSkeleton {
    return this.builder.build();
  }
}
