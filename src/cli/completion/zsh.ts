// The zsh completion script: the same lookups as bash (zsh reads the same `case`), walked with
// zsh's `words` and CURRENT, offered through compadd, _files and _describe.
import { lookups } from './bash.js';
import { header } from './render.js';
import type { CommandEntry } from './table.js';

// biome-ignore lint/suspicious/noTemplateCurlyInString: ${fpath[1]} is zsh's, printed as it is
const INSTALL = 'kct completion zsh > "${fpath[1]}/_kct" (then start a new shell), or: source <(kct completion zsh)';

export function zshScript(table: CommandEntry[], version: string): string {
  return `#compdef kct
${header('zsh', version, INSTALL)}
${lookups(table)}

_kct_offer() {
  local kind="$1" line
  local -a models
  case "$kind" in
    choices\\ *) compadd -- \${=\${kind#choices }} ;;
    files) _files ;;
    models)
      for line in \${(f)"$("$_kct_bin" __complete model-ids "\${_kct_globals[@]}" 2>/dev/null)"}; do
        models+=("\${line%%$'\\t'*}:\${line#*$'\\t'}")
      done
      _describe -t models 'model id' models ;;
  esac
}

_kct() {
  local cur="\${words[CURRENT]}" prev="" word kind cmdpath="" subcommands
  local -i npos=0 i=2
  local _kct_bin="\${words[1]}"
  local -a _kct_globals
  while (( i < CURRENT )); do
    word="\${words[i]}"
    case "$word" in
      -*=*) ;;
      -*)
        kind="$(_kct_value "$cmdpath" "$word")"
        if [[ -n "$kind" ]] && (( i + 1 < CURRENT )); then
          i+=1
          case "$word" in --profile|-p|--base-url) _kct_globals+=("$word" "\${words[i]}") ;; esac
        fi ;;
      *)
        if (( npos == 0 )) && [[ " $(_kct_subcommands "$cmdpath") " == *" $word "* ]]; then
          cmdpath="\${cmdpath:+$cmdpath }$word"
        else
          npos+=1
        fi ;;
    esac
    i+=1
  done
  (( CURRENT > 2 )) && prev="\${words[CURRENT-1]}"
  if [[ "$cur" == --*=* ]]; then
    kind="$(_kct_value "$cmdpath" "\${cur%%=*}")"
    if [[ -n "$kind" ]]; then compset -P 1 '*='; _kct_offer "$kind"; return; fi
  fi
  if [[ "$prev" == -* ]]; then
    kind="$(_kct_value "$cmdpath" "$prev")"
    if [[ -n "$kind" ]]; then _kct_offer "$kind"; return; fi
  fi
  if [[ "$cur" == -* ]]; then
    compadd -- \${=$(_kct_flags "$cmdpath")}
    return
  fi
  subcommands="$(_kct_subcommands "$cmdpath")"
  if [[ -n "$subcommands" ]] && (( npos == 0 )); then
    compadd -- \${=subcommands}
    return
  fi
  _kct_offer "$(_kct_arg "$cmdpath" "$npos")"
}

if [[ "\${funcstack[1]}" == "_kct" ]]; then
  _kct "$@"
else
  compdef _kct kct
fi
`;
}
