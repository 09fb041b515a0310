// The fish completion script: lookups as `switch` statements and one function, called by
// `complete`, that walks the tokens before the cursor and prints the candidates.
import { argCases } from './bash.js';
import type { CommandEntry } from './table.js';
import { header } from './render.js';

const WORD = /^[A-Za-z0-9_.:/|@ -]*$/;

function switchLines(cases: [patterns: string[], value: string, prefix?: boolean][]): string {
  return cases.map(([patterns, value, prefix]) => {
    for (const text of [...patterns, value]) if (!WORD.test(text)) throw new Error(`completion: unexpected characters in ${JSON.stringify(text)}`);
    return `        case ${patterns.map((pattern) => `'${pattern}${prefix ? '*' : ''}'`).join(' ')}\n            echo '${value}'`;
  }).join('\n');
}

export function fishScript(table: CommandEntry[], version: string): string {
  const values = table.flatMap((entry) => entry.values.map(([flag, kind]): [string[], string] => [[`${entry.path}|${flag}`], kind]));
  return `${header('fish', version, 'kct completion fish > ~/.config/fish/completions/kct.fish')}

function __kct_subcommands
    switch "$argv[1]"
${switchLines(table.filter((e) => e.subcommands.length > 0).map((e) => [[e.path], e.subcommands.join(' ')]))}
    end
end

function __kct_flags
    switch "$argv[1]"
${switchLines(table.map((e) => [[e.path], e.flags.join(' ')]))}
    end
end

function __kct_value
    switch "$argv[1]|$argv[2]"
${switchLines(values)}
    end
end

function __kct_arg
    switch "$argv[1]|$argv[2]"
${switchLines(table.flatMap((e) => argCases(e)))}
    end
end

function __kct_offer --argument-names kind cur bin
    set -l globals $argv[4..-1]
    switch "$kind"
        case 'choices *'
            string split ' ' -- (string replace 'choices ' '' -- $kind)
        case files
            __fish_complete_path "$cur"
        case models
            $bin __complete model-ids $globals 2>/dev/null
    end
end

function __kct_complete
    set -l tokens (commandline -opc)
    set -l cur (commandline -ct)
    set -l bin $tokens[1]
    set -l cmdpath ''
    set -l npos 0
    set -l globals
    set -l n (count $tokens)
    set -l i 2
    while test $i -le $n
        set -l word $tokens[$i]
        switch $word
            case '-*=*'
            case '-*'
                set -l kind (__kct_value "$cmdpath" $word)
                if test -n "$kind"; and test $i -lt $n
                    set i (math $i + 1)
                    if contains -- $word --profile -p --base-url
                        set -a globals $word $tokens[$i]
                    end
                end
            case '*'
                if test $npos -eq 0; and contains -- $word (string split ' ' -- (__kct_subcommands "$cmdpath"))
                    set cmdpath (string trim -- "$cmdpath $word")
                else
                    set npos (math $npos + 1)
                end
        end
        set i (math $i + 1)
    end
    if string match -q -- '--*=*' "$cur"
        set -l flag (string split -m 1 '=' -- $cur)[1]
        set -l kind (__kct_value "$cmdpath" $flag)
        if test -n "$kind"
            for value in (__kct_offer "$kind" (string split -m 1 '=' -- $cur)[2] $bin $globals)
                echo "$flag=$value"
            end
            return
        end
    end
    if test $n -gt 1; and string match -q -- '-*' "$tokens[$n]"
        set -l kind (__kct_value "$cmdpath" $tokens[$n])
        if test -n "$kind"
            __kct_offer "$kind" "$cur" $bin $globals
            return
        end
    end
    if string match -q -- '-*' "$cur"
        string split ' ' -- (__kct_flags "$cmdpath")
        return
    end
    set -l subcommands (__kct_subcommands "$cmdpath")
    if test -n "$subcommands"; and test $npos -eq 0
        string split ' ' -- $subcommands
        return
    end
    __kct_offer (__kct_arg "$cmdpath" $npos) "$cur" $bin $globals
end

complete -c kct -e
complete -c kct -f -a '(__kct_complete)'
`;
}
