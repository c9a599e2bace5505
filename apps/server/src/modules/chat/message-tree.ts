/** What placing a message in its conversation's tree needs. */
export interface TreeNode {
  id: string;
  parent_id: string | null;
  seq: number;
}

/**
 * A conversation's messages as a tree: each message follows its parent, and the children
 * of one parent are versions of each other (edited questions, regenerated answers),
 * oldest first. The branch shown runs from a first question down to the active message
 * and on through its newest descendants.
 */
export class MessageTree<T extends TreeNode> {
  private readonly byId = new Map<string, T>();
  private readonly children = new Map<string | null, T[]>();

  constructor(rows: readonly T[]) {
    const sorted = [...rows].sort((a, b) => a.seq - b.seq);
    for (const r of sorted) this.byId.set(r.id, r);
    for (const r of sorted) {
      const parent = this.parentOf(r.id);
      const list = this.children.get(parent) ?? [];
      list.push(r);
      this.children.set(parent, list);
    }
  }

  get(id: string): T | undefined {
    return this.byId.get(id);
  }

  /** The parent a message hangs under in this tree (null for a first message, or one whose parent is gone). */
  parentOf(id: string): string | null {
    const p = this.byId.get(id)?.parent_id ?? null;
    return p !== null && this.byId.has(p) ? p : null;
  }

  childrenOf(id: string | null): readonly T[] {
    return this.children.get(id) ?? [];
  }

  /** The message's versions, oldest first, itself included. */
  siblingIds(id: string): string[] {
    return this.childrenOf(this.parentOf(id)).map((m) => m.id);
  }

  /** From the first message down to `id`, inclusive. */
  pathTo(id: string): T[] {
    const path: T[] = [];
    for (let m = this.byId.get(id); m; m = this.byId.get(this.parentOf(m.id) ?? '')) path.push(m);
    return path.reverse();
  }

  /** Where the branch through `id` ends when each step takes the newest version. */
  newestLeafUnder(id: string): T | undefined {
    let m = this.byId.get(id);
    for (let next = m && this.newestChild(m.id); next; next = this.newestChild(next.id)) m = next;
    return m;
  }

  /**
   * The last message of the branch shown: under the active message (its newest
   * descendants), or, when none is set or it is gone, the newest message's branch.
   */
  shownLeaf(activeId: string | null): T | undefined {
    if (activeId && this.byId.has(activeId)) return this.newestLeafUnder(activeId);
    let newest: T | undefined;
    for (const m of this.byId.values()) if (!newest || m.seq > newest.seq) newest = m;
    return newest;
  }

  /** The branch shown, first message first. */
  shownBranch(activeId: string | null): T[] {
    const leaf = this.shownLeaf(activeId);
    return leaf ? this.pathTo(leaf.id) : [];
  }

  /** `id` and everything below it. */
  subtree(id: string): string[] {
    const out: string[] = [];
    const stack = this.byId.has(id) ? [id] : [];
    while (stack.length > 0) {
      const next = stack.pop() as string;
      out.push(next);
      for (const c of this.childrenOf(next)) stack.push(c.id);
    }
    return out;
  }

  private newestChild(id: string): T | undefined {
    const list = this.childrenOf(id);
    return list[list.length - 1];
  }
}
