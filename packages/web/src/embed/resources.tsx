// The program's brand resources in the embed (docs/resources.md): copy to put on the
// clipboard, files to download. A download is fetched with the embed's bearer session (an
// iframe sends no cookie, and a link no header), then saved.

import { api } from '../common/api.js';
import { fileSize } from '../common/file-size.js';
import { useLoad } from '../common/use-api.js';
import { CopyButton, saveBlob, Show } from '../common/ui.js';
import { t } from './language.js';
import { auth } from './session.js';

async function download(id: string, name: string): Promise<void> {
  const res = await fetch(`/v1/embed/resources/${encodeURIComponent(id)}/file`, auth());
  if (res.ok) saveBlob(await res.blob(), name);
}

export function Resources() {
  const loaded = useLoad((signal) => api.GET('/v1/embed/resources', { ...auth(), signal }), 'resources');
  return (
    <Show loaded={loaded}>
      {(answer) =>
        answer.data.length > 0 && (
          <section class="panel" aria-labelledby="resources-title">
            <h2 id="resources-title">{t('resources.title')}</h2>
            <ul class="resources">
              {answer.data.map(({ id, attributes: a }) => (
                <li>
                  <h3>{a.title}</h3>
                  {a.kind === 'copy' ? (
                    <>
                      <p class="copy">{a.body}</p>
                      <CopyButton text={a.body ?? ''} label={t('resources.copy')} />
                    </>
                  ) : (
                    <button type="button" class="secondary" onClick={() => download(id, a.file_name ?? 'resource')}>
                      {t('resources.download', { size: fileSize(a.size) })}
                      <span class="visually-hidden"> {a.title}</span>
                    </button>
                  )}
                </li>
              ))}
            </ul>
          </section>
        )
      }
    </Show>
  );
}
