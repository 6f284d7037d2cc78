from site_builder import Markup, Source, code_block, data_table, figure, fixture, heading, markdown, ordered_list, paragraph, revision, unordered_list, verified_output

revisions = []
