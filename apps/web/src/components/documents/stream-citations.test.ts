import { describe, expect, it } from 'vitest';
import { citationsPatch } from './stream-citations';

describe('citationsPatch', () => {
  it('takes the citations of a done event, dropping malformed ones', () => {
    const done = {
      content: 'x',
      citations: [
        { file_id: 'f', name: 'a.pdf', page: 27, snippet: 'The penalty' },
        { file_id: 'f', name: 'a.pdf', page: null, snippet: '' },
        { file_id: 3, name: 'bad' },
      ],
    };
    expect(citationsPatch(done)).toEqual({
      citations: [
        { file_id: 'f', name: 'a.pdf', page: 27, snippet: 'The penalty' },
        { file_id: 'f', name: 'a.pdf', page: null, snippet: '' },
      ],
    });
  });

  it('changes nothing when the event carries none', () => {
    expect(citationsPatch({ content: 'x' })).toEqual({});
  });
});
