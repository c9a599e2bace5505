import { FilesRepo } from '../chat/files.repo.js';

/** Uploaded files (documents and images) as the files calls see them; the bytes live under DATA_DIR/uploads. */
export class DocumentFilesRepo extends FilesRepo {
  /**
   * Deletes the file's row unless a message lists it (checked in the same statement, so a
   * send attaching it meanwhile wins); its pages, passages, index entries and knowledge-base
   * places go with it by cascade. True when deleted.
   */
  async deleteUnlisted(id: string): Promise<boolean> {
    const r = await this.db
      .deleteFrom('files')
      .where('id', '=', id)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb.selectFrom('message_files').select('message_id').whereRef('message_files.file_id', '=', 'files.id'),
          ),
        ),
      )
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** Takes the file out of every knowledge base (its passages are no longer searched there). */
  async leaveKnowledgeBases(id: string): Promise<void> {
    await this.db.deleteFrom('knowledge_base_documents').where('file_id', '=', id).execute();
  }
}
