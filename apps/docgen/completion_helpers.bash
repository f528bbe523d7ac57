# The bash completion's helpers, shared by every command's completion function.
# kestrel-docgen copies this file into completion/kestrel.bash after the generated
# model and parameter tables, before the generated per-command functions.

# Sets cur, prev, model (the -m value so far), split (1 when bash split the word being
# completed at '=', so only the text after it is replaced) and pre (text to put back
# before each candidate). Bash splits "-p C=1" into -p C = 1: the pieces are joined again.
_kestrel_words() {
    local i w n=-1 glue=0
    local -a joined=()
    for ((i = 1; i <= COMP_CWORD; i++)); do
        w=${COMP_WORDS[i]}
        if [[ $w == "=" && $n -ge 0 ]]; then
            joined[n]+="="
            glue=1
        elif ((glue)); then
            joined[n]+=$w
            glue=0
        else
            joined[++n]=$w
        fi
    done
    ((n >= 0)) || { joined=(""); n=0; }
    cur=${joined[n]}
    prev=""
    ((n > 0)) && prev=${joined[n - 1]}
    split=0
    [[ ${COMP_WORDS[COMP_CWORD]} != "$cur" ]] && split=1
    pre=""
    model=""
    for ((i = 0; i < n; i++)); do
        case ${joined[i]} in
            -m | --model) model=${joined[i + 1]} ;;
            --model=*) model=${joined[i]#--model=} ;;
        esac
    done
    if [[ $cur == -*=* ]]; then
        prev=${cur%%=*}
        _kestrel_cut
    fi
}

# Drops "name=" from cur; keeps it as a prefix of the candidates unless bash split there.
_kestrel_cut() {
    ((split)) || pre+="${cur%%=*}="
    cur=${cur#*=}
}

# COMPREPLY: the words of $1 that start with cur.
_kestrel_reply() {
    local w
    COMPREPLY=()
    for w in $1; do
        [[ $w == "$cur"* ]] && COMPREPLY+=("$pre$w")
    done
    return 0
}

_kestrel_files() {
    local f
    compopt -o filenames 2>/dev/null
    COMPREPLY=()
    while IFS= read -r f; do COMPREPLY+=("$pre$f"); done < <(compgen -f -- "$cur")
}

# -p / -g: name= from the chosen model's parameters, then the value when it is a choice.
_kestrel_param() {
    if [[ $cur == *=* ]]; then
        local name=${cur%%=*}
        _kestrel_cut
        _kestrel_reply "$(_kestrel_param_values "$model" "$name")"
    else
        compopt -o nospace 2>/dev/null
        _kestrel_reply "$(_kestrel_param_names "$model")"
    fi
}

