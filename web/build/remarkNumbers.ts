// A remark plugin: a lesson's prose numbers in the page's one format ("2 000"
// with a narrow no-break space, as every view and caption prints them), so a
// number is never split across lines and never written two ways on one
// screen. Code (`where id in (100,200)`) and SQL are left as written.
import type { Root } from 'mdast';
import { visit } from 'unist-util-visit';
import { groupDigits } from '../src/format/numbers';

export function remarkNumbers() {
  return (tree: Root) => {
    visit(tree, 'text', (node) => {
      node.value = groupDigits(node.value);
    });
  };
}
